"""A script with a CPU fallback: without a GPU the load fails."""
import torch

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


def restore(model, path):
    state = torch.load(path)  # want: TL403 "without CUDA"
    model.load_state_dict(state)
    return model


def fit(model, epochs, save_path="best.pt"):
    for _ in range(epochs):
        torch.save(model.state_dict(), save_path)
    # ok: read back in the same run, on the device it was saved from
    model.load_state_dict(torch.load(save_path))
    return model


def finetune(model, args):
    # a file of an earlier run, maybe a GPU one
    model.load_state_dict(torch.load(args.save))  # want: TL403 "without CUDA"
    for _ in range(args.epochs):
        torch.save(model.state_dict(), args.save)
    return model


class Agent:
    def __init__(self):
        self.net = torch.nn.Linear(4, 2).to(device)

    def save(self):
        torch.save(self.net.state_dict(), "agent.pth")

    def load(self):
        # `load()` runs in a test run, on another machine as often as not
        self.net.load_state_dict(torch.load("agent.pth"))  # want: TL403 "without CUDA"


def train_loop(net):
    for _ in range(3):
        torch.save(net, "best_model.pt")


train_loop(Agent().net)
# ok: the model train_loop saved in this run
best = torch.load("best_model.pt")
