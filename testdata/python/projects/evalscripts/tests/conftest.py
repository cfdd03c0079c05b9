import pytest
import torch

from models.lm import LM


@pytest.fixture
def predictions():
    lm = LM().eval()
    return lm(torch.zeros(2, 4)).argmax(1)  # ok: a fixture
