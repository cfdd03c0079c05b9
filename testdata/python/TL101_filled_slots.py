"""TL101: a tensor made in the function and filled one entry per
iteration, indexed by the loop's own counter (a seq2seq encoder's outputs,
one per input token), sums nothing across iterations; an entry summed
again by each iteration of a loop around it, or a fixed entry summed every
step, keeps every step's graph."""
import torch


def evaluate(encoder, decoder, tokens, hidden, max_length, size):
    outputs = torch.zeros(max_length, size)
    for t in range(len(tokens)):
        out, hidden = encoder(tokens[t], hidden)  # want: TL201
        outputs[t] = outputs[t] + out[0][0]  # ok: one entry per token, added once
    return decoder(hidden, outputs).argmax(-1).tolist()


def evaluate_pairs(encoder, decoder, tokens, hidden, size):
    outputs = torch.zeros(len(tokens), size)
    for t, token in enumerate(tokens):
        out, hidden = encoder(token, hidden)  # want: TL201
        outputs[t] += out[0][0]  # ok: the same, counted by enumerate
    return decoder(hidden, outputs).argmax(-1).tolist()


def evaluate_corpus(encoder, sentences, hidden, size):
    outputs = torch.zeros(16, size)
    for tokens in sentences:
        for t in range(len(tokens)):
            out, hidden = encoder(tokens[t], hidden)  # want: TL201
            outputs[t] += out[0][0]  # want: TL101(low) "accumulates a tensor"
    return outputs.sum().item()


def running(model, loader):
    acc = torch.zeros(1)
    for x, y in loader:
        acc[0] += (model(x) - y).pow(2).mean()  # want: TL101(low) "accumulates a tensor"
    return acc
