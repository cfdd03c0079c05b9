"""TL201: a script that loads its models, switches them to evaluation mode
at module level, and defines the evaluation that runs them."""
import torch

checkpoint = torch.load("best.pth", map_location="cpu")
encoder = checkpoint["encoder"]
encoder = encoder.to("cuda")
encoder.eval()
decoder = checkpoint["decoder"]


def evaluate(loader):
    # The switch of the module's model, never undone, is seen: the name
    # is not all the evidence.
    scores = []
    for image, caption in loader:
        features = encoder(image.to("cuda"))  # want: TL201(high) "in `evaluate`"
        scores.append(features.mean().item())
    return sum(scores) / len(scores)


def score(loader):
    # `decoder` is never switched to evaluation mode: evaluation by the
    # function's name alone.
    return [decoder(x.to("cuda")).argmax(1).tolist() for x in loader]  # want: TL201(medium) "only reach the host"


if __name__ == "__main__":
    batches = torch.load("test_batches.pt")
    print(evaluate(batches), score(batches))
