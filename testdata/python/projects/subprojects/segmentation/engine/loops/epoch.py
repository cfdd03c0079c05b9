from metrics import box_l1


def run_epoch(model, optimizer, loader, criterion):
    total = 0
    for images, masks in loader:
        optimizer.zero_grad()
        pred = model(images)
        loss = criterion(pred, masks)
        loss.backward()
        optimizer.step()
        # ok: engine/ is a package, never a folder on the path, so `metrics`
        # is segmentation/metrics.py (a float), not engine/metrics.py
        total += box_l1(pred, masks)
    return total
