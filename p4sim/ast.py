"""AST node for the P4 front end: one generic node class with a kind and fields."""


class N:
    """An AST node: ``k`` is its kind (e.g. 'binop', 'struct'), ``loc`` its Loc."""

    def __init__(self, k, loc, **kw):
        self.k = k
        self.loc = loc
        self.__dict__.update(kw)

    def get(self, name, default=None):
        return self.__dict__.get(name, default)

    def __repr__(self):
        fields = ", ".join(f"{k}={v!r}" for k, v in self.__dict__.items() if k not in ("k", "loc"))
        return f"N({self.k}, {fields})"
