import torch


def predict(model, batches):
    outputs = []
    with torch.no_grad():
        model.eval()
        for x in batches:
            outputs.append(model.decode(x))
    return outputs


def show_samples(model, batches):
    # With grad on: `.sample` of the objects bow's programs hand it.
    for x in batches:
        print(model.sample(x))
