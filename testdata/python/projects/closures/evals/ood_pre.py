def eval_ood_detection(model, loader):
    """Scores computed ahead of time: nothing runs the model."""
    return 0.0
