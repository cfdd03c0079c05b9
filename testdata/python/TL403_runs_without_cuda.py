"""A script with a CPU fallback: without a GPU the load fails."""
import torch

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


def restore(model, path):
    state = torch.load(path)  # want: TL403 "without CUDA"
    model.load_state_dict(state)
    return model
