import torch
from torch import nn


def eval_tgt(encoder, classifier, data_loader):
    encoder.eval()
    classifier.eval()
    loss, acc = 0.0, 0
    criterion = nn.CrossEntropyLoss()
    for images, labels in data_loader:
        preds = classifier(encoder(images))  # want: TL201(high) "in `eval_tgt`"
        loss += criterion(preds, labels).item()
        acc += preds.argmax(1).eq(labels).sum().item()
    return loss / len(data_loader), acc


def eval_quiet(encoder, classifier, data_loader):
    encoder.eval()
    classifier.eval()
    acc = 0
    for images, labels in data_loader:
        preds = classifier(encoder(images))  # ok: its one caller disables grad
        acc += preds.argmax(1).eq(labels).sum().item()
    return acc


def make_hook(encoder, data_loader):
    def on_epoch_end():
        encoder.eval()
        for images, _ in data_loader:
            print(encoder(images).norm().item())  # ok: handed to a trainer as a callback, run in a mode not seen
    return on_epoch_end
