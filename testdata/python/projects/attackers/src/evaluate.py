from attack import *


class Evaluator:
    def __init__(self, model, kind):
        self.model = model
        if kind == "fgsm":
            self.attacker = FGSM(model, 0.03)
        else:
            self.attacker = PGD(model, 0.03)

    def robust_accuracy(self, loader):
        self.model.eval()
        hits = 0
        for x, y in loader:
            x_adv = self.attacker(x, y)  # ok: an attack of either class, none a module
            hits += (self.model(x_adv).argmax(1) == y).sum().item()  # want: TL201 "self.model\(x_adv\)"
        return hits
