# A module whose own constructor takes every parameter it holds out of
# autograd (with its default arguments) records no graph on inputs that
# need none: a metric's feature extractor, an FID network. Running it
# after `.eval()` without no_grad costs nothing. A flag that keeps the
# parameters trainable, a layer left unfrozen, or a parameter of its own
# keeps the finding.
import numpy as np
import torch
import torch.nn as nn

from filters import gaussian_bank, learned_scale


class FeatureNet(nn.Module):
    """Freezes all it holds unless asked not to (pytorch-fid's shape)."""

    def __init__(self, blocks=2, requires_grad=False):
        super().__init__()
        self.blocks = nn.ModuleList([nn.Conv2d(3, 3, 3) for _ in range(blocks)])
        for param in self.parameters():
            param.requires_grad = requires_grad

    def forward(self, x):
        for b in self.blocks:
            x = b(x)
        return [x]


class Extractor(nn.Module):
    def __init__(self, freeze=True):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 8, 3), nn.ReLU())
        self.scale = 0.5
        if freeze:
            for _, p in self.features.named_parameters():
                p.requires_grad = False

    def forward(self, x):
        return self.features(x) * self.scale


class Distance(nn.Module):
    """Holds only a frozen module of this file: nothing to train."""

    def __init__(self):
        super().__init__()
        self.extractor = Extractor().eval()

    def forward(self, x, y):
        return (self.extractor(x) - self.extractor(y)).pow(2).mean()


class Moved(nn.Module):
    """Freezes a layer under a local name, then holds it moved."""

    def __init__(self, device="cpu"):
        super().__init__()
        layer = nn.Linear(4, 4).eval().requires_grad_(False)
        self.layer = layer.to(device)

    def forward(self, x):
        return self.layer(x)


class Unfrozen(nn.Module):
    """Freezes a layer under a local name, then thaws it as it holds it."""

    def __init__(self):
        super().__init__()
        layer = nn.Linear(4, 4).requires_grad_(False)
        self.layer = layer.requires_grad_(True)

    def forward(self, x):
        return self.layer(x)


class Rethawed(nn.Module):
    """Freezes a layer under a local name, holds it moved, then thaws it by that name."""

    def __init__(self, device="cpu"):
        super().__init__()
        layer = nn.Linear(4, 4).requires_grad_(False)
        self.layer = layer.to(device)
        layer.requires_grad_(True)

    def forward(self, x):
        return self.layer(x)


class Trainable(nn.Module):
    """Freezes the backbone, trains the head."""

    def __init__(self):
        super().__init__()
        self.backbone = nn.Conv2d(3, 8, 3)
        self.head = nn.Linear(8, 2)
        self.backbone.requires_grad_(False)

    def forward(self, x):
        return self.head(self.backbone(x).mean((2, 3)))


class Opted(nn.Module):
    """Freezes only when asked: with its defaults it trains."""

    def __init__(self, freeze=False):
        super().__init__()
        self.net = nn.Linear(4, 4)
        if freeze:
            self.net.requires_grad_(False)

    def forward(self, x):
        return self.net(x)


class Scaled(nn.Module):
    """A parameter of its own is not frozen with the extractor."""

    def __init__(self):
        super().__init__()
        self.extractor = Extractor()
        self.gain = nn.Parameter(torch.ones(1))

    def forward(self, x):
        return self.extractor(x) * self.gain


def get_activations(batches, model):
    model.eval()
    feats = []
    for batch in batches:
        pred = model(batch)[0]  # ok: TL201 every call passes a frozen FeatureNet
        feats.append(pred.cpu().numpy().reshape(pred.size(0), -1))
    return np.concatenate(feats)


def statistics(batches, model):
    act = get_activations(batches, model)
    return act.mean(axis=0), np.cov(act, rowvar=False)


def fid_stats(batches):
    return statistics(batches, FeatureNet(blocks=3).to("cpu"))


def distances(pairs):
    metric = Distance()
    return [metric(a, b).item() for a, b in pairs]  # ok: TL201 holds a frozen extractor


def features(images):
    net = Extractor()
    net.eval()
    return [net(x).cpu().numpy() for x in images]  # ok: TL201 frozen by its constructor


def head_scores(images):
    model = Trainable()
    model.eval()
    return [model(x).argmax(1).tolist() for x in images]  # want: TL201 "model\(x\)"


def opted_scores(images):
    model = Opted()
    model.eval()
    return [model(x).tolist() for x in images]  # want: TL201 "model\(x\)"


def scaled_scores(images):
    model = Scaled()
    model.eval()
    return [model(x).tolist() for x in images]  # want: TL201 "model\(x\)"


def score(model, images):
    model.eval()
    return [model(x).tolist() for x in images]  # want: TL201 "model\(x\)"


def run_scores(images):
    # One caller passes a frozen extractor, the other a trainable model.
    return score(Extractor(), images), score(Trainable(), images)


def wrapped_features(images, cuda=False):
    net = FeatureNet()
    if cuda:
        net = nn.DataParallel(net.cuda())
    net.eval()
    return [net(x)[0].cpu().numpy() for x in images]  # ok: TL201 a frozen FeatureNet, wrapped or not


def wrapped_scores(images, cuda=False):
    net = Trainable()
    if cuda:
        net = nn.DataParallel(net.cuda())
    net.eval()
    return [net(x).tolist() for x in images]  # want: TL201 "net\(x\)"


class Lowpass(nn.Module):
    """A fixed filter: a convolution without bias whose weight the constructor freezes by default."""

    def __init__(self, freeze_weights=True):
        super().__init__()
        self.lp = nn.Conv2d(3, 3, kernel_size=5, padding=2, groups=3, bias=False)
        self.lp.weight.data = torch.ones(3, 1, 5, 5) / 25
        self.lp.weight.requires_grad = not freeze_weights

    def forward(self, x):
        return self.lp(x)


class LowpassWithBias(nn.Module):
    """The same filter with a bias left trainable."""

    def __init__(self, freeze_weights=True):
        super().__init__()
        self.lp = nn.Conv2d(3, 3, kernel_size=5, padding=2, groups=3)
        self.lp.weight.requires_grad = not freeze_weights

    def forward(self, x):
        return self.lp(x)


def filtered(images):
    lp = Lowpass()
    lpb = LowpassWithBias()
    lp.eval()
    lpb.eval()
    a = [lp(x).mean().item() for x in images]  # ok: TL201 its one parameter frozen by the constructor's default
    b = [lpb(x).mean().item() for x in images]  # want: TL201 "lpb\(x\)"
    return a, b


def moved_scores(xs):
    model = Moved()
    model.eval()
    return [model(x).argmax(1).tolist() for x in xs]  # ok: TL201 frozen, then moved


def unfrozen_scores(xs):
    model = Unfrozen()
    model.eval()
    return [model(x).argmax(1).tolist() for x in xs]  # want: TL201 "model\(x\)"


def rethawed_scores(xs):
    model = Rethawed()
    model.eval()
    return [model(x).argmax(1).tolist() for x in xs]  # want: TL201 "model\(x\)"


class Vgg(nn.Module):
    """Trainable by default; `Vgg(requires_grad=False)` builds it frozen (fast neural style's shape)."""

    def __init__(self, requires_grad=True):
        super().__init__()
        self.slice = nn.Sequential(nn.Conv2d(3, 8, 3), nn.ReLU())
        if not requires_grad:
            for param in self.parameters():
                param.requires_grad = False

    def forward(self, x):
        return self.slice(x)


class Perceptual(nn.Module):
    """Its flag is assigned as it is: frozen when built with False."""

    def __init__(self, layers=2, requires_grad=True):
        super().__init__()
        self.net = nn.Sequential(*[nn.Conv2d(3, 3, 3) for _ in range(layers)])
        for p in self.net.parameters():
            p.requires_grad = requires_grad

    def forward(self, x):
        return self.net(x)


def style_targets(styles, flag):
    vgg = Vgg(requires_grad=False)
    vgg.eval()
    a = [vgg(s).mean().item() for s in styles]  # ok: TL201 built frozen by its constructor's argument
    positional = Vgg(False)
    positional.eval()
    b = [positional(s).mean().item() for s in styles]  # ok: TL201 the same argument, by position
    trainable = Vgg()
    trainable.eval()
    c = [trainable(s).mean().item() for s in styles]  # want: TL201 "trainable\(s\)"
    asked = Vgg(requires_grad=flag)
    asked.eval()
    d = [asked(s).mean().item() for s in styles]  # want: TL201 "asked\(s\)"
    return a, b, c, d


def perceptual_targets(styles):
    loss_net = Perceptual(requires_grad=False)
    loss_net.eval()
    return [loss_net(s).mean().item() for s in styles]  # ok: TL201 its parameters are assigned the False it is given


def deeper_targets(styles):
    deeper = Perceptual(3, requires_grad=False)
    deeper.eval()
    return [deeper(s).mean().item() for s in styles]  # ok: TL201 a second argument that decides nothing frozen


def kept_targets(styles):
    kept = Perceptual(requires_grad=True)
    kept.eval()
    return [kept(s).mean().item() for s in styles]  # want: TL201 "kept\(s\)"


def opted_targets(styles):
    opted = Opted(freeze=True)
    opted.eval()
    return [opted(s).mean().item() for s in styles]  # ok: TL201 its freezing asked for


def attack_scores(net, xs):
    # Freezes the parameters while it attacks, through `enumerate`.
    saved = [p.requires_grad for p in net.parameters()]
    for i, p in enumerate(net.parameters()):
        saved[i] = p.requires_grad
        p.requires_grad = False
    out = [net(x).argmax(1).tolist() for x in xs]  # ok: TL201 its parameters frozen above
    for p, r in zip(net.parameters(), saved):
        p.requires_grad = r
    return out


def classify_all(xs, classifier):
    return [classifier(x).argmax(1).tolist() for x in xs]  # ok: TL201 every caller freezes the model it hands over


def classify_run(xs, path):
    classifier = Trainable()
    classifier.load_state_dict(torch.load(path, map_location="cpu"))
    classifier.eval()
    for param in classifier.parameters():
        param.requires_grad = False
    return classify_all(xs, classifier)


def restore(model, x):
    return model(x)  # ok: TL201 every call hands on a model its callers froze


def restore_mode(model, x, mode=0):
    # A dispatcher: it hands its own parameter on, and every call of it
    # passes a frozen model.
    if mode == 0:
        return restore(model, x)
    return torch.stack([restore(model, torch.flip(x, dims=[-1])) for _ in range(2)])


def restore_run(xs):
    net = Trainable()
    net.eval()
    for k, v in net.named_parameters():
        v.requires_grad = False
    for x in xs:
        print(restore_mode(net, x, mode=1).shape)


def predict(model, x):
    return model(x)  # want: TL201 "model\(x\)"


def predict_mode(model, x):
    return predict(model, x)


def predict_run(xs):
    net = Trainable()
    net.eval()
    # One caller hands on a frozen model, the other a trainable one.
    frozen = Trainable()
    frozen.requires_grad_(False)
    for x in xs:
        print(predict_mode(net, x).argmax(1).tolist(), predict_mode(frozen, x).argmax(1).tolist())


def detect_all(xs, detector):
    return [detector(x).argmax(1).tolist() for x in xs]  # want: TL201 "detector\(x\)"


def detect_run(xs):
    frozen_detector = Trainable()
    frozen_detector.requires_grad_(False)
    trained = Trainable()
    trained.eval()
    return detect_all(xs, frozen_detector), detect_all(xs, trained)


def label_all(xs, labeler):
    return [labeler(x).argmax(1).tolist() for x in xs]  # want: TL201 "labeler\(x\)"


def label_run(xs, freeze):
    labeler = Trainable()
    early = label_all(xs, labeler)
    if freeze:
        labeler.requires_grad_(False)
    labeler.requires_grad_(False)
    return early, label_all(xs, labeler)


CLASSIFIER = "dnn"


def score_one(x, scorer):
    if CLASSIFIER == "dnn":
        return scorer(x).argmax(1).tolist()  # ok: TL201 frozen by the caller under the same test of a module-level name
    return None


def score_all(xs, path):
    scorer = Trainable()
    if CLASSIFIER == "dnn":
        scorer.load_state_dict(torch.load(path, map_location="cpu"))
        for p in scorer.parameters():
            p.requires_grad = False
    return [score_one(x, scorer) for x in xs]


class BackboneScorer(nn.Module):
    """Freezes its backbones through a helper of its own."""

    def __init__(self):
        super().__init__()
        self.vit = nn.Sequential(nn.Linear(4, 4), nn.ReLU())
        self.cnn = nn.Sequential(nn.Linear(4, 4), nn.ReLU())
        self.fix_network(self.vit)
        self.fix_network(self.cnn)

    def fix_network(self, model):
        for p in model.parameters():
            p.requires_grad = False

    def forward(self, x):
        return self.cnn(x)


class HeadScorer(nn.Module):
    def __init__(self):
        super().__init__()
        self.vit = nn.Sequential(nn.Linear(4, 4), nn.ReLU())
        self.head = nn.Linear(4, 1)
        self.fix_network(self.vit)
        self.saved = []

    def fix_network(self, model):
        for p in model.parameters():
            p.requires_grad = False

    def vit_features(self, x):
        self.vit(x)
        return self.saved[-1]

    def regress(self, x):
        self.vit.eval()
        feats = self.vit_features(x)  # ok: TL201 the helper's only pass is of the frozen `self.vit`
        return feats.tolist()

    def regress_head(self, x):
        self.vit.eval()
        return self.head(self.vit(x)).tolist()  # want: TL201 "self.head"


def backbone_scores(images):
    scorer = BackboneScorer()
    scorer.eval()
    return [scorer(x).tolist() for x in images]  # ok: TL201 its constructor freezes all it holds, through `fix_network`


class FilterBank(nn.Module):
    """A frozen layer whose weights a filter bank of another module gives, read in the constructor alone."""

    def __init__(self, freeze_weights=True):
        super().__init__()
        self.bank = gaussian_bank(5)
        self.conv = nn.Conv2d(3, 3, 5, bias=False)
        self.conv.weight.data = torch.as_tensor(np.stack([self.bank] * 3))[:, None]
        self.conv.weight.requires_grad = not freeze_weights

    def forward(self, x):
        return self.conv(x)


class ScaledBank(nn.Module):
    """The same, with a value of another module that the forward pass uses, which may be a parameter."""

    def __init__(self):
        super().__init__()
        self.scale = learned_scale()
        self.conv = nn.Conv2d(3, 3, 5, bias=False)
        self.conv.weight.requires_grad = False

    def forward(self, x):
        return self.conv(x) * self.scale


def filtered_loader(loader):
    bank = FilterBank()
    scaled = ScaledBank()
    bank.eval()
    scaled.eval()
    out = [bank(x).mean().item() for x in loader]  # ok: TL201 its one layer is frozen; the bank it reads is read in the constructor alone
    return out, [scaled(x).mean().item() for x in loader]  # want: TL201
