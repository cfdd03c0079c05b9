"""Functions that build the modules of nets.py: what a call of one makes
is what the class records."""
from nets import Backbone, Classifier


def load_backbone():
    net = Backbone()
    return net.eval()


def load_classifier(device):
    return Classifier().to(device)


def load_trainable_backbone():
    net = Backbone(freeze=False)
    return net
