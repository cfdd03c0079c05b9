"""TL201: a name a loop binds a pass's outputs to keeps them, and their
graph, alive while the next pass runs and after the loop; a name the loop
deletes or binds to what has no graph lets them go."""
import torch


def scores_held(model, batches):
    model.eval()
    hits = []
    for x in batches:
        out = model(x)  # want: TL201 "`out` holds the outputs, and the graph with them, until the next pass binds it again"
        hits.append(out.max(dim=1)[1].cpu().numpy())
    return hits


def scores_held_through_a_view(model, batches):
    model.eval()
    hits = []
    for x in batches:
        out = model(x)  # want: TL201 "`out` holds the outputs"
        out = out.contiguous()
        hits.append(out.max(dim=1)[1].cpu().numpy())
    return hits


def scores_deleted(model, batches):
    model.eval()
    hits = []
    for x in batches:
        out = model(x)  # want: TL201 "freed with the outputs, none of which is kept"
        hits.append(out.max(dim=1)[1].cpu().numpy())
        del out
    return hits


def scores_rebound(model, batches):
    model.eval()
    hits = []
    for x in batches:
        out = model(x)  # want: TL201 "freed with the outputs, none of which is kept"
        out = out.argmax(dim=1)
        hits.append(out.cpu().numpy())
    return hits


def scores_quiet(model, batches):
    model.eval()
    hits = []
    with torch.no_grad():
        for x in batches:
            out = model(x)  # ok: under no_grad
            hits.append(out.max(dim=1)[1].cpu().numpy())
    return hits


@torch.no_grad()
def scores_decorated(model, batches):
    model.eval()
    hits = []
    for x in batches:
        out = model(x)  # ok: under the decorator's no_grad
        hits.append(out.max(dim=1)[1].cpu().numpy())
    return hits


@torch.inference_mode()
def scores_inference(model, batches):
    model.eval()
    outs = []
    for x in batches:
        out = model(x)  # ok: under inference_mode
        outs.append(out.argmax(1).tolist())
    return outs


def scores_in_a_step(model, batches, optimizer):
    model.train()
    for x in batches:
        out = model(x)  # ok: back-propagated below
        loss = out.pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
