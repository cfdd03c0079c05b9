from detector import Detector, ProposalDetector, Scorer


def val_epoch(model, loader):
    # Every call hands in a Detector, whose first output holds detached
    # tensors: the list keeps no graph (the forward pass itself is TL201's).
    model.eval()
    detections_all = []
    total = 0.0
    for images, targets in loader:
        detections, loss = model(images, targets)  # want: TL201
        detections_all.extend(detections)  # ok: Detector.forward's first output is detached
        total += loss.item()
    return detections_all, total


def score_epoch(model, loader):
    # Every call hands in a Scorer, whose first output keeps its graph.
    scores = []
    for x in loader:
        s, n = model(x)
        scores.append(s)  # want: TL102
    return scores


def proposal_epoch(model, loader):
    model.eval()
    detections_all = []
    for images, targets in loader:
        detections, loss = model(images, targets)  # want: TL201
        detections_all.extend(detections)  # want: TL102(medium)
    return detections_all


def run(loader, rpn):
    detector = Detector()
    val_epoch(detector, loader)
    score_epoch(Scorer(), loader)
    proposal_epoch(ProposalDetector(rpn), loader)


if __name__ == "__main__":
    run(make_loader(), make_rpn())
