from .scoring import Scorer, Standardize
