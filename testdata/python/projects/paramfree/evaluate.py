"""Evaluation that hands a helper of another file the module it runs."""
from boxes.post import postprocess
from boxes.transforms import BoxTransform, LearnedTransform


def evaluate(images, anchors, regressions):
    regress_boxes = BoxTransform()
    results = []
    for x, a, r in zip(images, anchors, regressions):
        preds = postprocess(x, a, r, regress_boxes, 0.5)  # ok: TL201 the module handed over holds no parameter
        results.append(preds)
    return results


def evaluate_learned(images, anchors, regressions):
    regress_boxes = LearnedTransform()
    results = []
    for x, a, r in zip(images, anchors, regressions):
        preds = postprocess(x, a, r, regress_boxes, 0.5)  # want: TL201 "postprocess\(x, a, r, regress_boxes, 0\.5\)"
        results.append(preds)
    return results
