"""C preprocessing of P4 source through pcpp, with p4sim's own include directory."""
import io
import os

from pcpp import Preprocessor

from .errors import Loc, PreprocessorError

INCLUDE_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "include")


class _PP(Preprocessor):
    def __init__(self):
        super().__init__()
        self.errors = []
        self.line_directive = "#line"
        self.passthru_unfound_includes = False

    def on_error(self, file, line, msg):
        self.errors.append((file, line, msg))

    def on_include_not_found(self, is_malformed, is_system_include, curdir, includepath):
        d = getattr(self, "lastdirective", None)
        src = d.source if d is not None else "<unknown>"
        line = d.lineno if d is not None else 1
        what = "malformed #include" if is_malformed else "include file not found"
        self.errors.append((src, line, f"{what}: {includepath}"))
        from pcpp.preprocessor import Action, OutputDirective
        raise OutputDirective(Action.IgnoreAndRemove)

    def on_directive_unknown(self, directive, toks, ifpassthru, precedingtoks):
        if directive.value == "error":
            self.errors.append((directive.source, directive.lineno,
                                "#error " + "".join(t.value for t in toks).strip()))
            return True
        if directive.value == "warning":
            return True
        return None

    def on_comment(self, tok):
        return False  # strip comments


def preprocess(text, filename="<string>", include_dirs=(), defines=None):
    pp = _PP()
    # p4sim's own core.p4/tna.p4 come first: they must win over an SDE's copies
    pp.add_path(INCLUDE_DIR)
    if filename and os.path.dirname(filename):
        pp.add_path(os.path.dirname(os.path.abspath(filename)))
    for d in include_dirs:
        pp.add_path(str(d))
    # the SDE's build defines __TARGET_TOFINO__ (1 for Tofino 1): programs select their
    # Tofino branch with it; a caller's own definition wins
    defines = dict(defines or {})
    defines.setdefault("__TARGET_TOFINO__", "1")
    for name, value in defines.items():
        pp.define(f"{name} {value}" if value is not None else f"{name}")
    try:
        pp.parse(text, source=filename)
        out = io.StringIO()
        pp.write(out)
    except PreprocessorError:
        raise
    except Exception as e:  # pcpp internal failure: report located at file start
        raise PreprocessorError(Loc(filename, 1, 1), f"preprocessor failure: {e}") from None
    if pp.errors:
        f, line, msg = pp.errors[0]
        raise PreprocessorError(Loc(f, line or 1, 1), f"preprocessor: {msg.strip()}")
    return out.getvalue()
