"""Imports that fall back to a layout this project does not have."""
import torch

try:
    from ._inception import FeatureNet, Scorer
except:
    from inception import FeatureNet, Scorer


class Tracker(object):
    def __init__(self):
        self.features = list()

    def load_model(self):
        self.model = FeatureNet()
        self.model.eval()

    def aggregate(self, tensor):
        preds = self.model(tensor)[0]  # ok: TL201 frozen by its constructor, imported in the try
        self.features.append(preds.cpu().data.numpy())


class Judge(object):
    def __init__(self):
        self.scores = list()

    def load_model(self):
        self.model = Scorer()
        self.model.eval()

    def aggregate(self, tensor):
        preds = self.model(tensor)[0]  # want: TL201 "self.model\(tensor\)"
        self.scores.append(preds.cpu().data.numpy())


if __name__ == "__main__":
    loader = torch.utils.data.DataLoader([], batch_size=50)
    tracker = Tracker()
    tracker.load_model()
    judge = Judge()
    judge.load_model()
    for x in loader:
        tracker.aggregate(x)
        judge.aggregate(x)
