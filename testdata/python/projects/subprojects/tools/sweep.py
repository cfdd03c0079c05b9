"""A tool of the repository root, where no metrics module lives."""
from metrics import box_l1


def sweep(model, optimizer, loader):
    total = 0
    for images, boxes in loader:
        optimizer.zero_grad()
        pred = model(images)
        loss = pred.pow(2).mean()
        loss.backward()
        optimizer.step()
        # ok: `metrics` is not a module of tools/ or of the root; the
        # sub-projects' metrics modules are not on this script's path
        total += box_l1(pred, boxes)
    return total
