"""Run as `python -m scripts.finetune` from detection/."""
from models.losses import box_loss


def finetune(model, optimizer, loader):
    total = 0
    for images, boxes in loader:
        optimizer.zero_grad()
        pred = model(images)
        pred.pow(2).mean().backward()
        optimizer.step()
        total += box_loss(pred, boxes)  # want: TL101 "box_loss"
    return total
