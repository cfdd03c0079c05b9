from contexts import grad_for, inference_mode, optional_context


def infer(model, batches):
    model.eval()
    with inference_mode(model):
        return [model(x).cpu() for x in batches]  # ok: TL201 the helper returns no_grad or inference_mode


def infer_flag(model, batches, training):
    model.eval()
    with grad_for(training):
        return [model(x).argmax(-1).tolist() for x in batches]  # ok: TL201 the mode is not known


def infer_maybe(model, batches):
    model.eval()
    with optional_context(False):
        return [model(x).argmax(-1).tolist() for x in batches]  # want: TL201 "model\(x\)"
