from .masked import SoftMasked
