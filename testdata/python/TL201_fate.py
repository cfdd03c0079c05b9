"""TL201: where a forward pass's outputs go decides the finding and how sure it is."""
import torch
from torch import nn
from scoring import score_batch
from torchvision.utils import save_image


class Saliency:
    def __init__(self, model):
        self.model = model
        self.model.eval()

    def forward(self, x):
        return self.model(x)  # ok: its caller back-propagates what it returns

    def __call__(self, x):
        x.requires_grad_()
        out = self.forward(x)
        out.sum().backward()
        return x.grad


def accuracy(out, y):
    return (out.argmax(1) == y).float().mean().item()


def evaluate_external(model, batches):
    model.eval()
    scores = []
    for x, y in batches:
        out = model(x)  # want: TL201(medium) "in `evaluate_external`"
        scores.append(score_batch(out, y))
    return scores


def evaluate_local(model, batches):
    model.eval()
    total = 0.0
    for x, y in batches:
        out = model(x)  # want: TL201(high)
        total += accuracy(out, y)
    return total


def evaluate_stored(model, batches, n):
    model.eval()
    preds = torch.zeros(n, 3)
    for i, (x, _) in enumerate(batches):
        out = model(x)  # want: TL201(high)
        preds[i] = out[0]  # want: TL102
        preds[:, 0] = 0
    return preds.argmax(1).tolist()


def train_vae(vae, opt, loader, fixed_x):
    for idx, (images, _) in enumerate(loader):
        recon, mu, logvar = vae(images)
        loss = (recon - images).pow(2).sum() + mu.pow(2).sum() + logvar.exp().sum()
        opt.zero_grad()
        loss.backward()
        opt.step()
        if idx % 100 == 0:
            recon_x, _, _ = vae(fixed_x)  # want: TL201(medium) "only reach the host"
            save_image(recon_x.data.cpu(), "recon_%d.png" % idx)


def importance(model, loaders, directions):
    # Scores differentiated for each batch: a sum divided in place, then back-propagated.
    model.eval()
    for loader in loaders:
        for x, _ in loader:
            model.zero_grad()
            mean_vec = model(x).mean(dim=0)  # ok: TL201 its projections are summed, divided and back-propagated
            total = 0
            for d in directions:
                total += torch.matmul(d, mean_vec)
            total /= len(directions)
            total.backward()


if __name__ == "__main__":
    net = nn.Linear(4, 3)
    print(Saliency(net)(torch.randn(2, 4)))
    print(evaluate_external(net, []), evaluate_local(net, []), evaluate_stored(net, [], 0))
    train_vae(net, torch.optim.SGD(net.parameters(), lr=0.1), [], torch.randn(2, 4))



def draw_graph(model, x, path):
    # torchviz draws what autograd recorded: the graph is the point.
    from torchviz import make_dot

    model.eval()
    out = model(x)  # ok: make_dot walks the graph it records
    make_dot(out, params=dict(model.named_parameters())).render(path)


def draw_shapes(model, x):
    model.eval()
    out = model(x)  # want: TL201
    print(out.shape)


def hit_count(model, loader):
    model.eval()
    hits = 0
    for x, y in loader:
        pred = model(x).argmax(1)  # want: TL201 "`.argmax\(\)` drops the output at once, which frees them"
        hits += (pred == y).sum().item()
    return hits


def embeddings(model, loader):
    model.eval()
    out = []
    for x, _ in loader:
        z = model(x)  # want: TL201 "keeps its activations alive for as long as its outputs are held, although nothing back-propagates"
        out.append(z.cpu())  # want: TL102
    return out


def sample_grid(generator, noises):
    generator.eval()
    images = []
    for z in noises:
        images.append(generator(z).data.cpu())  # want: TL201 "`.data` drops the output at once, which frees them"
    return images


def probabilities(model, loader):
    model.eval()
    probs = []
    for x in loader:
        # The sigmoid only maps it: `.data` drops the pass's graph at once.
        probs.append(torch.sigmoid(model(x)).data)  # want: TL201 "`.data` drops the output at once, which frees them"
    return probs


def probabilities_kept(model, loader):
    model.eval()
    return [torch.sigmoid(model(x)) for x in loader]  # want: TL201 "keeps its activations alive"


class Tagger(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8, 3)
        self.softmax = nn.Softmax(-1)

    def forward(self, x):
        return self.fc(x)

    def infer(self, x):
        self.eval()
        # A layer without parameters held by the class hands the graph on:
        # where its output goes is seen.
        probs = self.softmax(self.forward(x))  # want: TL201(high) "after `self.eval\(\)`"
        score, pred = probs.max(-1)
        return pred.item(), score.item()

    def fit(self, x, y, opt):
        probs = self.softmax(self.forward(x))  # ok: its log is back-propagated
        loss = -probs.gather(1, y[:, None]).log().mean()
        opt.zero_grad()
        loss.backward()
        opt.step()


tagger = Tagger()
tags = [tagger.infer(x) for x in torch.randn(4, 2, 8).unbind(0)]


class ProbedNet(nn.Module):
    # The size of the flattened features, found by a pass on zeros through
    # convolutions and a pooling layer without parameters: a shape probe.
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 4, 3)
        self.pool = nn.MaxPool2d(2)
        self.conv2 = nn.Conv2d(4, 8, 3)
        self.fc = nn.Linear(self.flat_size(), 10)

    def flat_size(self):
        x = torch.zeros(1, 1, 28, 28)
        x = self.conv1(x)
        x = self.pool(x)
        x = self.conv2(x)  # ok: what the layers make of zeros, read for its size
        return x.numel()

    def forward(self, x):
        return self.fc(self.conv2(self.pool(self.conv1(x))).flatten(1))
