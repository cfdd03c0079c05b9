HEADS = {}


def register(cls):
    HEADS[cls.__name__] = cls
    return cls


def build_head(cfg):
    return HEADS[cfg["type"]](**cfg.get("args", {}))
