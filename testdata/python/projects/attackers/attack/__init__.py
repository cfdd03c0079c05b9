"""The package binds the class Attacker over its module of that name."""
from .Attacker import Attacker
from .methods import FGSM, PGD
