"""Run as `python -m engine.loop` from detection/, which is not a package."""
from metrics import box_l1


def fit(model, optimizer, loader, epochs):
    history = []
    for _ in range(epochs):
        epoch_error = 0
        for images, boxes in loader:
            optimizer.zero_grad()
            pred = model(images)
            loss = (pred - boxes).pow(2).mean()
            loss.backward()
            optimizer.step()
            epoch_error += box_l1(pred, boxes)  # want: TL101 "box_l1"
        history.append(epoch_error)  # want: TL102
    return history
