from .classifier import Classifier
from .losses import *
