"""Run as `python train.py` from detection/: its folder is on the path."""
from metrics import box_l1


def train(model, optimizer, loader):
    total = 0
    for images, boxes in loader:
        optimizer.zero_grad()
        pred = model(images)
        loss = box_l1(pred, boxes)
        loss.backward()
        optimizer.step()
        total += box_l1(pred, boxes)  # want: TL101 "box_l1"
    return total
