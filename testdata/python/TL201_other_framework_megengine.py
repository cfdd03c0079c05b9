"""TL201: MegEngine code records no autograd tape without a GradManager; its eval() is MegEngine's."""
import megengine as mge
import megengine.functional as F
import numpy as np


class Predictor:
    def __init__(self, model):
        self.model = model
        self.model.eval()

    def inference(self, img):
        x = F.expand_dims(mge.tensor(img), 0)
        return self.model(x).numpy()  # ok: not PyTorch


def evaluate(model, images):
    model.eval()
    return [model(mge.tensor(np.asarray(i))).numpy() for i in images]  # ok: not PyTorch
