"""TL201: a module-level model switched to evaluation mode, and back to
training mode by a function of the same file: the switch says nothing of
the mode the evaluation finds it in."""
import torch

checkpoint = torch.load("best.pth", map_location="cpu")
encoder = checkpoint["encoder"]
encoder.eval()


def finetune(loader, optimizer):
    encoder.train()
    for x, y in loader:
        optimizer.zero_grad()
        torch.nn.functional.mse_loss(encoder(x), y).backward()
        optimizer.step()


def evaluate(loader):
    scores = []
    for image, caption in loader:
        features = encoder(image)  # want: TL201(high) "in `evaluate`"
        scores.append(features.mean().item())
    return sum(scores) / len(scores)


if __name__ == "__main__":
    batches = torch.load("test_batches.pt")
    print(evaluate(batches))
