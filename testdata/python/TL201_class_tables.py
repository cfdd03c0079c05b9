"""TL201: a class picked from a table that another module defines is constructed, not run."""
import torch
from detectors.factory import detector_factory, model_zoo


def prefetch_test(opt, images):
    Detector = detector_factory[opt.task]
    detector = Detector(opt)  # ok: a class written as one, from another module's table
    return [detector.run(img) for img in images]


def evaluate(opt, batches):
    model = model_zoo[opt.arch]
    model.eval()
    return [model(x).argmax(1).tolist() for x in batches]  # want: TL201 "in `evaluate`"


if __name__ == "__main__":
    prefetch_test(None, [])
    evaluate(None, [torch.zeros(1, 3)])
