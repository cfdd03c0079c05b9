"""TL201: outputs handed to a metric helper that counts correct answers on the host."""
import torch
from torch import nn


def get_accuracy(output, target, batch_size):
    corrects = (torch.max(output, 1)[1].view(target.size()).data == target.data).sum()
    return (100.0 * corrects / batch_size).item()


def hits(output, target):
    return ((output.argmax(1) == target) * 1.0 + 0).sum().item()


def fit_step(output, target, optimizer):
    loss = (output - nn.functional.one_hot(target, output.size(1)).float()).pow(2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.item()


def kept(output, target, history):
    history.append(output)
    return (output.argmax(1) == target).sum().item()


def run(model, optimizer, train_loader, test_loader, history):
    for epoch in range(10):
        model.train()
        for images, labels in train_loader:
            outputs = model(images)  # ok: TL201 fit_step back-propagates them
            fit_step(outputs, labels, optimizer)
        model.eval()
        test_acc = 0.0
        for images, labels in test_loader:
            outputs = model(images)  # want: TL201(high) "`outputs` holds the outputs, and the graph with them"
            test_acc += get_accuracy(outputs, labels, 32) + hits(outputs, labels)
        for images, labels in test_loader:
            outputs = model(images)  # ok: TL201 kept in a list the caller gave: not seen to end
            kept(outputs, labels, history)
