from utils.experiment import *
from .metrics import *
