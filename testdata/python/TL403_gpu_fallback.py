"""A device choice between two GPUs does not make a script run without CUDA."""
import torch

device = torch.device("cuda:0" if torch.cuda.is_available() else "cuda:1")


def restore(net, path):
    # ok: the script only runs on GPUs; TL404 (off by default) reports it
    net.load_state_dict(torch.load(path))
    return net


def reload_best(net):
    torch.save(net.state_dict(), "best.pt")
    # ok: the same run wrote it, from the device it reads it back to
    net.load_state_dict(torch.load("best.pt"))
    return net
