"""TL201: a torchvision weights enum's preprocessing
(`ResNet18_Weights.IMAGENET1K_V1.transforms()`) is no model: running it
records nothing. The model it prepares inputs for is one."""
import torch
from torchvision import models


class Classifier(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.model = models.resnet18(weights=models.ResNet18_Weights.IMAGENET1K_V1)
        self.preprocess = models.ResNet18_Weights.IMAGENET1K_V1.transforms()

    def prepare(self, img):
        return self.preprocess(img).unsqueeze(0)

    def forward(self, x):
        return self.model(x)


def predict(images):
    clf = Classifier()
    clf.eval()
    preds = []
    for img in images:
        x = clf.prepare(img)  # ok: preprocessing, no model
        preds.append(int(clf(x).argmax()))  # want: TL201 "clf\(x\)"
    return preds
