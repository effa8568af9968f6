/* Devices, contexts, protection domains and memory registrations.
 *
 * Two devices are listed (the release opens dev_list[1]); both send and receive on one
 * network interface: $ATP_VERBS_EMU_IFACE, or else the first interface that is up and
 * not loopback (in a network namespace, the host's veth end). */
#define _GNU_SOURCE
#include "emu.h"

#include <arpa/inet.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#define EMU_NUM_DEVICES 2
#define EMU_MAX_PORTS 4

struct ibv_emu_stats emu_stats;
static struct ibv_device devices[EMU_NUM_DEVICES];
static struct emu_port ports[EMU_MAX_PORTS];
static pthread_mutex_t ports_lock = PTHREAD_MUTEX_INITIALIZER;

static int is_up_non_loopback(const char *name)
{
    int fd = socket(AF_INET, SOCK_DGRAM, 0);
    if (fd < 0)
        return 0;
    struct ifreq ifr;
    memset(&ifr, 0, sizeof(ifr));
    snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", name);
    int ok = ioctl(fd, SIOCGIFFLAGS, &ifr) == 0 && (ifr.ifr_flags & IFF_UP) &&
             !(ifr.ifr_flags & IFF_LOOPBACK);
    close(fd);
    return ok;
}

/* the interface's name in `out`, or -1 with errno ENODEV */
static int choose_interface(char *out, size_t size)
{
    const char *chosen = getenv("ATP_VERBS_EMU_IFACE");
    if (chosen && *chosen) {
        if (if_nametoindex(chosen) == 0) {
            fprintf(stderr, "verbs_emu: ATP_VERBS_EMU_IFACE=%s: no such interface here "
                            "(list them with `ip link`)\n", chosen);
            errno = ENODEV;
            return -1;
        }
        snprintf(out, size, "%s", chosen);
        return 0;
    }
    struct if_nameindex *names = if_nameindex();
    int found = -1;
    for (struct if_nameindex *n = names; n && n->if_index; n++) {
        if (is_up_non_loopback(n->if_name)) {
            snprintf(out, size, "%s", n->if_name);
            found = 0;
            break;
        }
    }
    if (names)
        if_freenameindex(names);
    if (found < 0) {
        fprintf(stderr, "verbs_emu: no interface that is up (set ATP_VERBS_EMU_IFACE)\n");
        errno = ENODEV;
    }
    return found;
}

struct ibv_device **ibv_get_device_list(int *num_devices)
{
    char ifname[IF_NAMESIZE];
    if (choose_interface(ifname, sizeof(ifname)) < 0)
        return NULL;
    struct ibv_device **list = calloc(EMU_NUM_DEVICES + 1, sizeof(*list));
    if (!list)
        return NULL;
    for (int i = 0; i < EMU_NUM_DEVICES; i++) {
        snprintf(devices[i].name, sizeof(devices[i].name), "emu_%d", i);
        snprintf(devices[i].dev_name, sizeof(devices[i].dev_name), "%s", ifname);
        devices[i].index = i;
        list[i] = &devices[i];
    }
    if (num_devices)
        *num_devices = EMU_NUM_DEVICES;
    return list;
}

void ibv_free_device_list(struct ibv_device **list) { free(list); }

const char *ibv_get_device_name(struct ibv_device *device) { return device->name; }

struct ibv_context *ibv_open_device(struct ibv_device *device)
{
    struct emu_context *ctx = calloc(1, sizeof(*ctx));
    if (!ctx)
        return NULL;
    ctx->ibv.device = device;
    ctx->ibv.num_comp_vectors = 1;
    pthread_mutex_init(&ctx->lock, NULL);
    ctx->next_key = 1;
    ctx->port = emu_port_open(ctx);
    if (!ctx->port) {
        free(ctx);
        return NULL;
    }
    return &ctx->ibv;
}

int ibv_close_device(struct ibv_context *context)
{
    (void)context;  /* objects live until exit: the receive thread may still point at them */
    return 0;
}

/* the port of the context's interface, shared by every context on it */
struct emu_port *emu_port_open(struct emu_context *ctx)
{
    const char *ifname = ctx->ibv.device->dev_name;
    int ifindex = (int)if_nametoindex(ifname);
    if (ifindex == 0) {
        errno = ENODEV;
        return NULL;
    }
    struct emu_port *port = NULL;
    pthread_mutex_lock(&ports_lock);
    for (int i = 0; i < EMU_MAX_PORTS; i++) {
        if (ports[i].ifindex == ifindex) {
            port = &ports[i];
            break;
        }
        if (ports[i].ifindex == 0) {
            port = &ports[i];
            snprintf(port->ifname, sizeof(port->ifname), "%s", ifname);
            port->ifindex = ifindex;
            port->rx_fd = -1;
            pthread_mutex_init(&port->lock, NULL);
            break;
        }
    }
    pthread_mutex_unlock(&ports_lock);
    if (!port)
        errno = ENOSPC;
    return port;
}

struct ibv_pd *ibv_alloc_pd(struct ibv_context *context)
{
    struct ibv_pd *pd = calloc(1, sizeof(*pd));
    if (pd)
        pd->context = context;
    return pd;
}

int ibv_dealloc_pd(struct ibv_pd *pd)
{
    free(pd);
    return 0;
}

struct ibv_mr *ibv_reg_mr(struct ibv_pd *pd, void *addr, size_t length, int access)
{
    (void)access;
    struct emu_context *ctx = emu_ctx(pd->context);
    struct emu_mr *mr = calloc(1, sizeof(*mr));
    if (!mr)
        return NULL;
    mr->ibv.context = pd->context;
    mr->ibv.pd = pd;
    mr->ibv.addr = addr;
    mr->ibv.length = length;
    pthread_mutex_lock(&ctx->lock);
    mr->ibv.lkey = mr->ibv.rkey = ctx->next_key++;
    mr->next = atomic_load(&ctx->mrs);
    atomic_store(&ctx->mrs, mr);
    pthread_mutex_unlock(&ctx->lock);
    return &mr->ibv;
}

int ibv_dereg_mr(struct ibv_mr *mr)
{
    (void)mr;  /* kept (never freed) so a concurrent lookup never reads freed memory */
    return 0;
}

/* the registration `lkey` names if it covers [addr, addr+len), else NULL */
const struct ibv_mr *emu_mr_find(struct emu_context *ctx, uint32_t lkey, uint64_t addr, uint32_t len)
{
    for (struct emu_mr *mr = atomic_load(&ctx->mrs); mr; mr = atomic_load(&mr->next)) {
        uint64_t start = (uint64_t)(uintptr_t)mr->ibv.addr;
        if (mr->ibv.lkey == lkey && addr >= start && addr + len <= start + mr->ibv.length)
            return &mr->ibv;
    }
    return NULL;
}

void ibv_emu_get_stats(struct ibv_emu_stats *out)
{
    uint64_t *dst = (uint64_t *)out;
    uint64_t *src = (uint64_t *)&emu_stats;
    for (size_t i = 0; i < sizeof(*out) / sizeof(uint64_t); i++)
        dst[i] = __atomic_load_n(&src[i], __ATOMIC_RELAXED);
}

/* $ATP_VERBS_EMU_STATS names a file each process appends its counters to at exit, so a
 * harness can tell frames the emulation dropped from frames the network lost */
__attribute__((destructor)) static void write_stats(void)
{
    const char *path = getenv("ATP_VERBS_EMU_STATS");
    if (!path || !*path)
        return;
    FILE *f = fopen(path, "a");
    if (!f)
        return;
    struct ibv_emu_stats s;
    ibv_emu_get_stats(&s);
    fprintf(f, "{\"pid\": %d, \"tx_posts\": %llu, \"tx_frames\": %llu, \"rx_frames\": %llu, "
               "\"rx_delivered\": %llu, \"rx_no_flow\": %llu, \"rx_no_wqe\": %llu, "
               "\"rx_not_ready\": %llu}\n",
            (int)getpid(), (unsigned long long)s.tx_posts, (unsigned long long)s.tx_frames,
            (unsigned long long)s.rx_frames, (unsigned long long)s.rx_delivered,
            (unsigned long long)s.rx_no_flow, (unsigned long long)s.rx_no_wqe,
            (unsigned long long)s.rx_not_ready);
    fclose(f);
}
