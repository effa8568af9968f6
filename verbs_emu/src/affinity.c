/* sched_setaffinity as the release needs it on a small machine: it pins thread k to CPU
 * k+1 (worker) or 15-27 (PS) and exits if that fails. This definition, in the library
 * the release links before libc, maps each requested CPU c onto the c-th (mod n) CPU of
 * the n the process was allowed at start, then pins there: threads stay pinned (as the
 * release wants) but only onto CPUs that exist here. */
#define _GNU_SOURCE
#include "emu.h"

#include <sys/syscall.h>
#include <unistd.h>

static cpu_set_t initial_cpus;
static int initial_count;

__attribute__((constructor)) static void remember_cpus(void)
{
    CPU_ZERO(&initial_cpus);
    if (syscall(SYS_sched_getaffinity, 0, sizeof(initial_cpus), &initial_cpus) < 0)
        CPU_SET(0, &initial_cpus);
    initial_count = CPU_COUNT(&initial_cpus);
}

cpu_set_t *emu_initial_cpus(void) { return &initial_cpus; }

static int nth_allowed(int n)
{
    int seen = 0;
    for (int cpu = 0; cpu < CPU_SETSIZE; cpu++)
        if (CPU_ISSET(cpu, &initial_cpus) && seen++ == n % initial_count)
            return cpu;
    return 0;
}

int sched_setaffinity(pid_t pid, size_t size, const cpu_set_t *mask)
{
    cpu_set_t mapped;
    CPU_ZERO(&mapped);
    for (int cpu = 0; cpu < (int)(size * 8) && cpu < CPU_SETSIZE; cpu++)
        if (CPU_ISSET_S(cpu, size, mask))
            CPU_SET(nth_allowed(cpu), &mapped);
    if (CPU_COUNT(&mapped) == 0) {
        errno = EINVAL;
        return -1;
    }
    return (int)syscall(SYS_sched_setaffinity, pid, sizeof(mapped), &mapped);
}
