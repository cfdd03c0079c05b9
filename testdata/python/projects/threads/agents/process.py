"""What the trainer starts in its own processes and threads, which start with grad enabled."""
import torch

from agents.model import PPO


def evaluate(shared_model, steps):
    local_model = PPO()
    local_model.eval()
    for _ in range(steps):
        local_model.load_state_dict(shared_model.state_dict())
        logits = local_model(torch.zeros(4))  # want: TL201 "in `evaluate`"
        print(torch.argmax(logits).item())


@torch.no_grad()
def watch(shared_model, steps):
    # ok: decorated with no_grad
    for _ in range(steps):
        print(shared_model(torch.zeros(4)).argmax().item())


def report(shared_model):
    # ok: handed to code whose grad mode is not seen
    shared_model.eval()
    print(shared_model(torch.zeros(4)).argmax().item())
