# A pytest module: pytest calls `test_forward_shape`; the module runs it
# only bare, from its `__main__` block.
import torch

from models.lm import LM


def run_once(model):
    return model(torch.zeros(1, 8, dtype=torch.long))  # ok: test code


def test_forward_shape():
    out = run_once(LM())  # ok: test code
    assert out.shape[0] == 1


if __name__ == "__main__":
    test_forward_shape()
