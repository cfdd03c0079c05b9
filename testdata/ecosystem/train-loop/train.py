import torch


def train(model, loader, optimizer):
    total = 0
    for x, y in loader:
        loss = torch.nn.functional.mse_loss(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss
    return total


def evaluate(model, loader):
    model.eval()
    return [model(x) for x, _ in loader]


state = torch.load("checkpoint.pt")
scaler = torch.cuda.amp.GradScaler()
