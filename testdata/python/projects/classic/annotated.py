"""Parameters annotated with the project's classes are taken at their word."""
import torch.nn as nn

from models import Classifier
from models.classifier import Tokenizer


class Head(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)

    def forward(self, x):
        return self.fc(x)


def evaluate(clf: Classifier, batches):
    outputs = []
    for batch in batches:
        outputs.append(clf(batch))  # want: TL102 TL201
    return outputs


def predict(h: Head, xs):
    return [h(x) for x in xs]  # want: TL201


def evaluate_text(tok: Tokenizer, texts):
    words = []
    for text in texts:
        words.append(tok(text))  # ok: a Tokenizer is not a module
    return words

