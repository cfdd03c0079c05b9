from .nets import Policy

__all__ = ["Policy"]
