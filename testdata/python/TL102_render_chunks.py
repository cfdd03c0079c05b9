"""TL102: a renderer that runs its model on the chunks of one tensor,
whatever the list of chunks is called, and concatenates the outputs
before going on: one pass in parts, whose list ends with the call. A
loop over a loader's batches that keeps every output is steps."""
import torch


def get_minibatches(inputs, chunksize=1024):
    return [inputs[i:i + chunksize] for i in range(0, inputs.shape[0], chunksize)]


def render(model, points, chunksize=1024):
    batches = get_minibatches(points, chunksize=chunksize)
    predictions = []
    for batch in batches:
        predictions.append(model(batch))  # ok: TL102 the chunks of one pass, concatenated below
    return torch.cat(predictions, dim=0).sigmoid()


def render_split(model, points):
    batches = torch.split(points, 512)
    predictions = []
    for batch in batches:
        predictions.append(model(batch))  # ok: TL102 the chunks of one pass
    return torch.cat(predictions, dim=0)


def train(model, optimizer, points, target, steps):
    for _ in range(steps):
        loss = (render(model, points) - target).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        loss = (render_split(model, points) - target).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def predict_all(model, batches):
    predictions = []
    for batch in batches:
        predictions.append(model(batch))  # want: TL102 "no backward\(\) of this step" TL201(low) "in `predict_all`"
    return torch.cat(predictions, dim=0).sigmoid()


def evaluate(model, loader, target):
    model.train()
    loss = (predict_all(model, loader) - target).pow(2).mean()
    return loss.item()


def show(model, points):
    with torch.no_grad():
        return render(model, points).cpu()


def show_with_grad(model, points):
    return render(model, points).detach().cpu()
