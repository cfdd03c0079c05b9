"""TL201: a model's layers called one by one (a step-by-step decoder in
a beam search) are forward passes of that model: `decoder.embedding(w)`,
`decoder.lstm(x, h)`, `decoder.fc(h)`."""
import torch
import torch.nn.functional as F

decoder = torch.load("decoder.pt", map_location="cpu")
decoder.eval()


def greedy(features, steps=20):
    words = torch.zeros(features.size(0), dtype=torch.long)
    h = features
    out = []
    for _ in range(steps):
        emb = decoder.embedding(words)  # want: TL201(low) "`decoder.embedding\(words\)` runs a forward pass with grad enabled"
        h = decoder.rnn(emb, h)
        words = F.log_softmax(decoder.fc(h), dim=1).argmax(1)
        out.append(words.tolist())
    return out


def fit_step(optimizer, features, words, targets):
    decoder.train()
    h = decoder.rnn(decoder.embedding(words), features)  # ok: back-propagated below
    loss = F.cross_entropy(decoder.fc(h), targets)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()


def tokenize(vocab, words):
    return [vocab.embedding(w) for w in words]  # ok: not a model's layer
