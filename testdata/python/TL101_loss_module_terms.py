"""TL101: the terms a loss class returns beside its total (`loss, loc,
cls = criterion(...)`) hold the graph of the predictions it is given,
as its forward shows: a term computed with tensors given by keyword, or
by a loss the class holds, is summed with its graph. An accuracy it
returns beside them holds none."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class FocalLoss(nn.Module):
    def __init__(self, gamma=2.0):
        super().__init__()
        self.gamma = gamma

    def forward(self, logits, target):
        p = torch.sigmoid(logits)
        pt = p * target + (1 - p) * (1 - target)
        return (-((1 - pt) ** self.gamma) * torch.log(pt + 1e-10)).sum()


class DetectionLoss(nn.Module):
    def __init__(self, loc_factor):
        super().__init__()
        self.focal = FocalLoss()
        self.loc_factor = loc_factor

    def forward(self, cls_hat, box_hat, cls_true, box_true):
        loc_loss = 0.0
        class_loss = 0.0
        for i in range(len(cls_true)):
            loc_loss += F.smooth_l1_loss(input=box_hat[i], target=box_true[i], reduction="sum")
            class_loss += self.focal(cls_hat[i], cls_true[i])
        accuracy = (cls_hat.argmax(-1) == cls_true.argmax(-1)).float().mean()
        total = class_loss + self.loc_factor * loc_loss
        return total, loc_loss, class_loss, accuracy


def train(net, loader, optimizer, epochs):
    criterion = DetectionLoss(5.0)
    for _ in range(epochs):
        total_sum, loc_sum, cls_sum, acc_sum = 0.0, 0.0, 0.0, 0.0
        for x, boxes, labels in loader:
            cls_preds, box_preds = net(x)
            loss, loc_loss, class_loss, accuracy = criterion(cls_preds, box_preds, labels, boxes)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            loc_sum += loc_loss  # want: TL101 "after its backward\(\)"
            cls_sum += class_loss  # want: TL101 "after its backward\(\)"
            acc_sum += accuracy  # ok: argmax and a comparison end the graph
            total_sum += loss.item()  # ok: a number
        print(total_sum, loc_sum, cls_sum, acc_sum)
