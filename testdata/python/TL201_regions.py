# Evaluation regions: from a switch to evaluation mode to the next switch
# back to training, judged by the back-propagation inside each region, not
# anywhere in the function; one finding per region.
import torch
import torch.nn as nn
import torch.nn.functional as F


def fit(net, opt, train_batches, test_x, epochs):
    for epoch in range(epochs):
        net.eval()
        print(net(test_x).sum().item())  # want: TL201 "after `net.eval\(\)`"
        net.train()
        for bx in train_batches:
            opt.zero_grad()
            loss = net(bx).sum()
            loss.backward()
            opt.step()
    net.eval()
    final = net(test_x)  # want: TL201 "after `net.eval\(\)`"
    print(final.sum().item())


def fit_and_validate(unet, loss, valid_loader):
    loss.backward()
    unet.train(False)
    for x in valid_loader:
        print(unet(x).mean().item())  # want: TL201 "after `unet.train\(False\)`"


def two_checks(net, x):
    net.eval()
    print(net(x).sum().item())  # want: TL201
    net.train()
    net.eval()
    print(net(x).mean().item())  # want: TL201


def saliency(model, x):
    model.eval()
    x.requires_grad_()
    score = model(x).max()  # ok: the region asks for gradients of its input
    score.backward()
    return x.grad


def test_time_adaptation(model, opt, batches):
    model.eval()
    for x in batches:
        opt.zero_grad()
        loss = model(x).entropy().mean()  # ok: the region back-propagates
        loss.backward()
        opt.step()


def linear_probe(backbone, head, opt, loader):
    backbone.eval()
    for x, y in loader:
        with torch.no_grad():
            feats = backbone(x)  # ok: under no_grad
        opt.zero_grad()
        loss = F.cross_entropy(head(feats), y)  # ok: the region trains the head
        loss.backward()
        opt.step()


def train_one_epoch(model, opt, loader):
    model.train()
    for x, y in loader:
        opt.zero_grad()
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        opt.step()


def run(model, opt, loader, val_x):
    model.eval()
    train_one_epoch(model, opt, loader)  # ok: the helper switches back to training and back-propagates
    model.eval()
    print(model(val_x).argmax(1))  # want: TL201 "after `model.eval\(\)`"


# Names say what a function is for; other words in them cancel nothing.
def eval_step(model, x):
    out = model(x)  # want: TL201 "in `eval_step`"
    return out.argmax(1)


def eval_ppl_train(model, loader):
    for batch in loader:
        out = model(batch)  # want: TL201 "in `eval_ppl_train`"
        print(out.argmax(1))


def train_step(model, x):
    return model(x)  # ok: not named for evaluation, and its output may be back-propagated by the caller


def train_and_eval(model, opt, x):
    loss = model(x).sum()  # ok: the function back-propagates
    loss.backward()
    opt.step()
    return model(x).argmax(1)  # want: TL201 "outputs only become indices"


# A model built and switched in one expression, or loaded and called.
class Gen(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Linear(8, 8)

    def forward(self, x):
        return self.body(x)


def sample_all(batches):
    gen = Gen().eval()
    for batch in batches:
        print(gen(batch).argmax(1))  # want: TL201 "after `Gen\(\).eval\(\)`"


rnn = torch.load("rnn.pt", map_location="cpu")


def evaluate(x):
    out = rnn(x)  # want: TL201 "in `evaluate`"
    return out.argmax(1)


# A test function's random input is a shape check; an inference helper's
# constant input is a real seed.
def test_output_shape():
    net = Gen()
    assert net(torch.randn(2, 8)).shape == (2, 8)  # ok: a shape check


def predict_from_seed(model):
    out = model(torch.zeros(1, 8))  # want: TL201 "in `predict_from_seed`"
    return out.argmax(1)


# A frozen encoder: its parameters need no gradient, so its forward pass
# records no graph for inputs that need none.
class FrozenTextEncoder(nn.Module):
    def __init__(self, transformer):
        super().__init__()
        self.transformer = transformer
        self.freeze()

    def freeze(self):
        self.transformer = self.transformer.eval()
        for param in self.parameters():
            param.requires_grad = False

    def forward(self, tokens):
        return self.transformer(tokens)  # ok: frozen, and a model's own method


def count_flops(model, input_size):
    model.eval()
    dummy = torch.rand(input_size)
    model(dummy)  # want: TL201(low) a random input to count operations: one dry run's graph


def count_flops_packed(model, profile):
    model.eval()
    inputs = (torch.randn(1, 3, 64, 64),)
    with profile():
        model(*inputs)  # want: TL201(low) random inputs packed in a tuple


def check_denoiser(denoiser, seed_steps):
    denoiser.eval()
    steps = torch.tensor([472.25, 217.5])
    x = torch.autograd.Variable(torch.randn(2, 3, 64, 64))
    out = denoiser(x, steps)  # ok: random images beside literal timesteps
    assert out.shape == x.shape
    denoised = denoiser(x, seed_steps)  # want: TL201 "after `denoiser.eval\(\)`"
    return denoised.detach().cpu().numpy()


def export(model_path):
    model = torch.load(model_path, map_location="cpu")
    model.eval()
    dummy = torch.zeros(1, 8)
    _ = model(dummy)  # want: TL201(low) a dry run on a constant input, its result unused
    out = model(dummy)  # ok: the region is reported once, at its first pass
    out = torch.jit.trace(model, dummy)
    return out


class Vocoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Linear(8, 8)

    def forward(self, x):
        self.eval()
        return self.body(x)  # ok: a forward method runs in its caller's grad mode


def fit_and_test(classifier, opt, loader, test_loader):
    for epoch in range(10):
        for i, (points, target) in enumerate(loader):
            classifier = classifier.train()
            opt.zero_grad()
            loss = F.nll_loss(classifier(points), target)
            loss.backward()
            opt.step()
            if i % 10 == 0:
                classifier = classifier.eval()
                pred = classifier(points)  # want: TL201 "after `classifier.eval\(\)`"
                print(pred.argmax(1).eq(target).sum().item())
    for points, target in test_loader:
        classifier = classifier.eval()
        pred = classifier(points)  # want: TL201 "after `classifier.eval\(\)`"
        print(pred.argmax(1).eq(target).sum().item())


def preprocess(extractor, batches):
    return [extractor(b) for b in batches]


def extract_features(feature_extractor, batches):
    for param in feature_extractor.parameters():
        param.requires_grad = False
    feature_extractor.eval()
    return preprocess(feature_extractor, batches)  # ok: a frozen model records no graph


def jacobian_of(logits, params):
    return [torch.autograd.grad(l, params, retain_graph=True) for l in logits]


def fisher_terms(model, x, params):
    model.eval()
    logits = model(x)  # ok: `jacobian_of` asks for gradients of them
    return jacobian_of(logits, params)


from fairseq.tasks import FairseqTask  # noqa: E402


class SpeechTask(FairseqTask):
    def valid_step(self, sample, model, criterion):
        res = model(**sample["net_input"])  # ok: fairseq's trainer runs valid_step under no_grad
        return res["logits"].argmax(-1).tolist()

    def inference_step(self, model, sample):
        res = model(**sample["net_input"])  # want: TL201 "in `inference_step`"
        return res["logits"].argmax(-1).tolist()


def test_disabled(model, loader):
    return
    model.eval()
    for x in loader:
        print(model(x).argmax(1))  # ok: unreachable after the return above


def plan_actions(model, actions, optimizer, steps, regularize):
    for _ in range(steps):
        optimizer.zero_grad()
        model.eval()
        loss = model(actions).pow(2).mean()  # ok: back-propagated below, whether or not the if switches back
        if regularize:
            model.train()
            loss = loss + 0.1 * model(actions).var()
        loss.backward()
        optimizer.step()


def score_actions(model, actions, regularize):
    model.eval()
    score = model(actions).mean().item()  # want: TL201 "after `model.eval\(\)`"
    if regularize:
        model.train()
    return score


def features(backbone, wav, frozen):
    # A switch in one arm of an if does not reach the other arm.
    if frozen:
        backbone.eval()
        with torch.no_grad():
            feat = backbone(wav)
    else:
        feat = backbone(wav)  # ok: the fine-tuning arm; eval() ran only in the other
    return feat


def features_both_arms(backbone, wav, frozen):
    if frozen:
        backbone.eval()
        with torch.no_grad():
            feat = backbone(wav)
    else:
        backbone.eval()
        feat = backbone(wav)  # want: TL201 "after `backbone.eval\(\)`"
    return feat.detach().cpu().numpy()


def after_both_arms(backbone, wav, frozen):
    if frozen:
        backbone.eval()
    else:
        wav = wav * 2
    return backbone(wav).argmax(1).tolist()  # want: TL201 "after `backbone.eval\(\)`"


class LatentCodec(nn.Module):
    # A module that puts a submodule of its own in evaluation mode (a
    # statistics-only BatchNorm) is not being evaluated, and what its
    # forward returns is a tensor, not a model in evaluation mode.
    def __init__(self):
        super().__init__()
        self.encoder = nn.Conv2d(3, 8, 3, padding=1)
        self.decoder = nn.Conv2d(4, 3, 3, padding=1)
        self.stats = nn.BatchNorm2d(4, affine=False)
        self.head = nn.Linear(4, 2)

    def normalize(self, z):
        self.stats.eval()
        return self.stats(z)  # ok: a BatchNorm without affine weights holds no parameters

    def denormalize(self, z):
        self.stats.eval()
        return z * torch.sqrt(self.stats.running_var.view(1, -1, 1, 1) + 1e-4)

    def decode(self, z):
        z = self.denormalize(z)
        return self.decoder(z)  # ok: z is the helper's output, not a model it switched

    def forward(self, x):
        return self.decode(self.normalize(self.encoder(x)[:, :4]))


class Detector(nn.Module):
    def __init__(self):
        super().__init__()
        self.codec = LatentCodec()
        self.head = nn.Linear(3, 2)

    def score(self, x):
        feats = self.codec(x)
        return self.head(feats.mean((2, 3)))  # ok: the codec's forward returns features, not a model in eval mode


def build_lazy_modules(model, shape, batch_size=8):
    # A dry run that builds lazy modules, on a fresh tensor filled with
    # random numbers.
    model.eval()
    data = torch.FloatTensor(batch_size, *shape).normal_()
    model(data)  # want: TL201(low) random input after .eval()


def evaluate_filled(model, batches):
    model.eval()
    out = torch.FloatTensor(len(batches), 2)
    for i, x in enumerate(batches):
        out[i] = model(x.fill_(1.0)).mean()  # want: TL201 "model\(x.fill_\(1.0\)\)" TL102
    return out.tolist()


def score_pairs(model, pairs):
    model.eval()
    # A call by keywords alone is shown with its arguments elided, not as `model()`.
    return [model(source_sequence=src, target_sequence=tgt, attention_mask=None).argmax(-1).tolist() for src, tgt in pairs]  # want: TL201 "`model\(\.\.\.\)`"


# A shape demo at module level, given random tensors and a mask by keyword.
demo = nn.MultiheadAttention(16, 2, batch_first=True)
demo_mask = torch.nn.utils.rnn.pad_sequence([torch.ones(n) for n in [3, 5]], batch_first=True).bool()
demo_out, _ = demo(query=torch.randn(2, 5, 16), key=torch.randn(2, 5, 16), value=torch.randn(2, 5, 16), key_padding_mask=demo_mask)  # ok: TL201 random inputs
print(demo_out.shape)
demo_out2 = demo(torch.randn(2, 5, 16), torch.randn(2, 5, 16), torch.randn(2, 5, 16), need_weights=False)  # ok: TL201 random inputs, an option by keyword
print(demo_out2[0].shape)
