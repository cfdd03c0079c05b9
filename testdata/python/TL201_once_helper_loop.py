"""TL201: module-level code that calls, once, a helper whose loop runs the
model once per item keeps a graph per item, not one: not a pass run once."""
import torch
import torch.nn as nn

from tokenizers import decode

model = nn.Linear(4, 4)
model.load_state_dict(torch.load("model.pt", map_location="cpu"))
model.eval()


def translate(sentence):
    tokens = sentence
    for _ in range(50):
        step = torch.argmax(model(tokens), dim=-1)  # want: TL201(high)
        tokens = torch.cat((tokens, step.view(-1, 1).float()), dim=-1)[:, -4:]
    return decode(tokens.tolist())


def bleu_score(sentences):
    score = 0.0
    for s in sentences:
        score += len(translate(s))
    return score / len(sentences)


print(bleu_score(torch.load("test.pt", map_location="cpu")))  # ok: TL201 its pass is reported where it runs, in translate
