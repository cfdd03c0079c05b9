from .evaluate import eval_quiet, eval_tgt, make_hook

__all__ = (eval_tgt, eval_quiet, make_hook)
