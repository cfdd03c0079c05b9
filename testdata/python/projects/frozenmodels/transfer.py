import torchvision

from bank import FixedBank, LearnedBank
from freezing import describe_model, freeze_model


def frozen_features(loader):
    net = torchvision.models.resnet18(weights="DEFAULT")
    freeze_model(net)
    net.eval()
    return [net(x).tolist() for x, _ in loader]  # ok: TL201 a helper of another module froze every parameter


def described_features(loader):
    net = torchvision.models.resnet18(weights="DEFAULT")
    describe_model(net)
    net.eval()
    return [net(x).tolist() for x, _ in loader]  # want: TL201 "net\(x\)"


def fixed_responses(loader):
    bank = FixedBank()
    bank.eval()
    return [bank.first_layer(x).mean().item() for x in loader]  # ok: TL201 a method of a module whose constructor freezes all it holds


def learned_responses(loader):
    bank = LearnedBank()
    bank.eval()
    return [bank.first_layer(x).mean().item() for x in loader]  # want: TL201 "bank.first_layer\(x\)"
