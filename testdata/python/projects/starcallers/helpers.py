import torch


def evaluate_model(model, batches):
    preds = []
    for x in batches:
        y = model(x)  # want: TL201(high) "in `evaluate_model`"
        preds.extend(y.argmax(1).tolist())
    return preds


def score_batches(model, batches):
    # Named for nothing: its callers hand it a model in evaluation mode.
    return [model(x).max().item() for x in batches]  # want: TL201(high)


def quiet_scores(model, batches):
    # Its only caller runs it under no_grad.
    return [model(x).max().item() for x in batches]  # ok: called under torch.no_grad()


def fit_batches(model, batches, opt):
    for x in batches:
        opt.zero_grad()
        loss = model(x).pow(2).mean()  # ok: back-propagated
        loss.backward()
        opt.step()
