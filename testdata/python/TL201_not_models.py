"""Calls that are not forward passes of a model, and hooks a framework runs without grad."""
import ctypes
import random
from abc import ABC
from collections.abc import Callable, Sequence
from typing import Optional

import numpy as np
import torch
import torch.nn as nn
import torchaudio
from pytorch_lightning import Callback
from torch.distributions import Categorical
from augmentations import RandomFlip

libsvm = ctypes.CDLL("libsvm.so")


class Brighten(nn.Module):
    """An augmentation written as a module: no parameters, no submodules."""

    def __init__(self, low=0.5, high=1.5):
        super().__init__()
        self.low, self.high = low, high

    def forward(self, x):
        factor = torch.empty(x.size(0), 1, 1, 1).uniform_(self.low, self.high)
        return (x * factor.to(x.device)).clamp(0, 1)


class Scale(nn.Module):
    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(1))

    def forward(self, x):
        return x * self.weight


def check_probability_model(model_ptr):
    return libsvm.svm_check_probability_model(model_ptr) == 1  # ok: a C function, whatever its name


def augment(loader):
    aug = Brighten()
    aug.eval()
    return [aug(x).mean().item() for x in loader]  # ok: a module with no parameters records nothing


def scale(loader):
    layer = Scale()
    layer.eval()
    return [layer(x).mean().item() for x in loader]  # want: TL201 "after `layer.eval\(\)`"


class ActorCritic(nn.Module):
    def __init__(self, obs_dim, n_actions):
        super().__init__()
        self.actor = nn.Sequential(nn.Linear(obs_dim, n_actions), nn.Softmax(dim=-1))
        self.critic = nn.Linear(obs_dim, 1)


class PPO:
    def __init__(self, obs_dim, n_actions):
        self.policy = ActorCritic(obs_dim, n_actions)

    def evaluate(self, states, actions):
        values = self.policy.critic(states).squeeze(-1)  # ok: the terms of the clipped loss
        dist = Categorical(self.policy.actor(states))
        return values, dist.log_prob(actions), dist.entropy()

    def evaluate_returns(self, states):
        return self.policy.critic(states).mean().item()  # want: TL201 "in `evaluate_returns`"


class OnlineProbe(Callback):
    def __init__(self):
        self.results = []

    def on_validation_batch_end(self, trainer, pl_module, outputs, batch, batch_idx, dataloader_idx=0):
        x, y = batch
        logits = pl_module.probe(pl_module.encoder(x))  # ok: Lightning runs validation hooks without grad
        self.results.append((logits.argmax(1) == y).float().mean().item())

    def on_test_start(self, trainer, pl_module):
        for x, y in trainer.datamodule.test_dataloader():
            preds = pl_module(x.to(pl_module.device))  # ok: Lightning runs the test loop, its start hooks included, without grad
            self.results.append((preds.argmax(1) == y).float().mean().item())

    def on_train_start(self, trainer, pl_module):
        for x, y in trainer.datamodule.val_dataloader():
            pl_module.eval()
            preds = pl_module(x.to(pl_module.device))  # want: TL201
            self.results.append((preds.argmax(1) == y).float().mean().item())


def load_library(windows):
    if windows:
        lib = ctypes.WinDLL("svm.dll")
    else:
        lib = ctypes.CDLL("libsvm.so")
    return lib.svm_load_model(b"model.txt")  # ok: a C library's function, however the library was loaded


def notebook_cells(loader):
    aug = Scale()
    aug = Brighten()  # the binding that reaches the calls below, as cells run in order
    for x in loader:
        print(aug(x).mean().item())  # ok: Brighten has no parameters


class Fusable(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(3, 8, 3), nn.BatchNorm2d(8), nn.ReLU())

    def forward(self, x):
        return self.body(x)

    def fuse_model(self):
        for m in self.modules():
            if isinstance(m, nn.Sequential):
                torch.ao.quantization.fuse_modules(m, ["0", "1", "2"], inplace=True)

    def embed(self, x):
        return self.body(x).mean((2, 3))


def quantize(path, images):
    net = Fusable()
    net.load_state_dict(torch.load(path, map_location="cpu"))
    net.eval()
    net.fuse_model()  # ok: rewires modules, runs no forward pass
    return net.embed(images)  # want: TL201 "forward pass"


class Predictor:
    """An inference wrapper, not a module: its __call__ disables grad itself."""

    def __init__(self, net: nn.Module):
        self.net = net.eval()

    def __call__(self, image):
        with torch.no_grad():
            return self.net(image).argmax(1).cpu()


def predict_all(predictor: Predictor, images):
    return [predictor(image).tolist() for image in images]  # ok: runs the network under no_grad


class Overlap(nn.Module):
    def forward(self, a, b):
        lo = torch.max(a[..., :2], b[..., :2])
        hi = torch.min(a[..., 2:], b[..., 2:])
        return (hi - lo).clamp(min=0).prod(-1)


class TargetAssigner(nn.Module):
    def __init__(self, thresh):
        super().__init__()
        self.thresh = thresh
        self.overlap = Overlap()

    def forward(self, boxes, gt, labels):
        return torch.where(self.overlap(boxes, gt) > self.thresh, labels, -torch.ones_like(labels))


def assign_targets(batches):
    assigner = TargetAssigner(0.5)
    assigner.eval()
    return [assigner(b, g, l).tolist() for b, g, l in batches]  # ok: its only submodule holds no parameters either


class Tokenizer:
    def learn_model(self, files):
        self.vocab = sorted({w for name in files for w in open(name).read().split()})


def build_tokenizers(registry, kind, files):
    tok = registry[kind]()
    tok.learn_model(files)  # ok: a method named after a model is not one
    return tok


def project_latent(load_generator, path, device, w):
    g = load_generator(path)["G_ema"].requires_grad_(False).to(device)
    g.eval()
    return g.synthesis(w).cpu().numpy()  # ok: the generator is frozen where it is loaded


class ConsistencyTrainer:
    def __init__(self, model, teacher, optimizer):
        self.model, self.teacher, self.optimizer = model, teacher, optimizer
        self.affine_transformer = RandomFlip(axis=[1, 2], threshold=0.8)

    def regularization(self, student_out, image):
        with torch.no_grad():
            teacher_out = self.teacher(image)

        def generate_pairs(s, t):
            flipped = torch.stack([self.affine_transformer(x) for x in t])  # ok: its loss is returned, then back-propagated
            return nn.functional.mse_loss(s, flipped)

        return generate_pairs(student_out, teacher_out)

    def train_step(self, image, target):
        self.model.train()
        logits = self.model(image)
        loss = nn.functional.cross_entropy(logits, target) + self.regularization(logits, image)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()


class SegTrainer:
    def __init__(self, pixel_loss):
        self.seg_net = nn.Conv2d(3, 4, 3, padding=1)
        self.pixel_loss = pixel_loss
        self.optimizer = torch.optim.SGD(self.seg_net.parameters(), lr=0.1)
        self.losses = []

    def train(self, loader):
        self.seg_net.train()
        self.pixel_loss.train()
        for inputs, targets in loader:
            backward_loss = shown_loss = self.pixel_loss(self.seg_net(inputs), targets)  # ok: one of its names is back-propagated
            self.losses.append(shown_loss.item())
            self.optimizer.zero_grad()
            backward_loss.backward()
            self.optimizer.step()


class FrozenFeatures(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Conv1d(1, 8, 400, stride=320), nn.GELU())

    def forward(self, x):
        with torch.no_grad():
            return self.body(x.reshape(1, 1, -1)).transpose(1, 2).cpu()


def extract_features(waves):
    extractor = FrozenFeatures()
    return [extractor(w).numpy() for w in waves]  # ok: its forward runs under no_grad


class OpenFeatures(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Conv1d(1, 8, 400, stride=320), nn.GELU())

    def forward(self, x):
        with torch.no_grad():
            x = x.reshape(1, 1, -1)
        return self.body(x).transpose(1, 2).cpu()


def extract_open_features(waves):
    extractor = OpenFeatures()
    return [extractor(w).detach().numpy() for w in waves]  # want: TL201 "host"


class BoundFeatures(nn.Module):
    # What it returns is bound under no_grad and returned after the block.
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Conv1d(1, 8, 400, stride=320), nn.GELU())

    def forward(self, x):
        with torch.no_grad():
            feats = self.body(x.reshape(1, 1, -1)).transpose(1, 2)
        return feats


def extract_bound_features(waves):
    extractor = BoundFeatures()
    return [extractor(w).tolist() for w in waves]  # ok: what its forward returns is computed under no_grad


class HalfBoundFeatures(nn.Module):
    # One binding of what it returns is made with grad enabled.
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Conv1d(1, 8, 400, stride=320), nn.GELU())

    def forward(self, x, frozen=True):
        feats = self.body(x.reshape(1, 1, -1))
        if frozen:
            with torch.no_grad():
                feats = self.body(x.reshape(1, 1, -1))
        return feats


def extract_half_features(waves):
    extractor = HalfBoundFeatures()
    return [extractor(w).tolist() for w in waves]  # want: TL201 "host"


def whiten(images):
    # Normalisation layers built without affine weights hold no parameters.
    inorm = nn.InstanceNorm2d(3)
    bnorm = nn.BatchNorm2d(3, affine=False)
    lnorm = nn.LayerNorm(32, elementwise_affine=False)
    a = inorm(images).cpu().numpy()  # ok: InstanceNorm has no affine weights by default
    b = bnorm(images).cpu().numpy()  # ok: affine=False
    c = lnorm(images).cpu().numpy()  # ok: elementwise_affine=False
    return a, b, c


def whiten_affine(images):
    inorm = nn.InstanceNorm2d(3, affine=True)
    return inorm(images).detach().cpu().numpy()  # want: TL201 "host"


class BoxOverlap(nn.Module):
    def __init__(self, eps=1e-9):
        super().__init__()
        self.eps = eps

    def forward(self, a, b):
        inter = (torch.min(a[..., None, 2:], b[..., None, :, 2:]) - torch.max(a[..., None, :2], b[..., None, :, :2]))
        return inter.clamp(min=0).prod(-1)


class TargetAssigner(nn.Module):
    # No parameters anywhere: its only submodule is parameter-free, and the
    # methods it calls on what calls return are tensor methods.
    def __init__(self, thresh):
        super().__init__()
        self.thresh = thresh
        self.overlap = BoxOverlap()

    def forward(self, boxes, gt):
        best = self.overlap(boxes, gt).max(-1, keepdim=True)[0]
        return torch.where(best > self.thresh, 1, 0)

    def check(self, boxes, gt):
        self.eval()
        return self.forward(boxes, gt).tolist()  # ok: nothing here holds a parameter


def assign_targets(boxes, gt):
    assigner = TargetAssigner(0.5).cuda()
    assigner.eval()
    return assigner.forward(boxes, gt).cpu().numpy()  # ok: a parameter-free module



def threat_name(attack):
    return str(attack.getThreatModel().cpu())  # ok: a camelCase getter after a verb, not a model


def disable_option(box, idx):
    item = box.model().item(idx)  # ok: a method given no input returns state; it runs no network
    return item


def classify(model, x):
    return model.classify_net(x).argmax(1).tolist()  # want: TL201 "host"


class FeatureStats(nn.Module):
    # Its forward returns nothing: it runs a frozen network under
    # inference_mode and keeps numbers.
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(3, 8, 3), nn.AdaptiveAvgPool2d(1))
        self.feats = []

    def forward(self, x):
        with torch.inference_mode():
            self.feats.append(self.net(x).flatten(1).cpu().numpy())


class FeatureKeeper(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Conv2d(3, 8, 3)

    def forward(self, x):
        self.last = self.net(x)


def evaluate_statistics(sample_fn, batches):
    stats = FeatureStats()
    keeper = FeatureKeeper()
    for _ in range(batches):
        x = sample_fn(64)
        stats(x)  # ok: its forward runs the network under inference_mode and returns nothing
    keeper.eval()
    for _ in range(batches):
        keeper(sample_fn(64))  # want: TL201 "in `evaluate_statistics`"
    return stats.feats


def greedy(qnet, state):
    with torch.no_grad():
        return qnet(state).argmax(1)


def record_episode(env, policy, steps):
    frames, state = [], env.reset()
    for _ in range(steps):
        action = policy(torch.as_tensor(state))  # ok: every caller passes a function, not a model
        state = env.step(action.item())
        frames.append(env.render())
    return frames


def record_greedy(env, qnet):
    return record_episode(env, lambda s: greedy(qnet, s), 100)


def record_with(env, policy_net, steps):
    frames, state = [], env.reset()
    for _ in range(steps):
        action = policy_net(torch.as_tensor(state))  # want: TL201 "host"
        state = env.step(action.item())
    return frames


def record_trained(env, qnet):
    return record_with(env, qnet, 100)


class ThresholdTable:
    def __init__(self, table):
        self.table = table

    def _threshold_for_network(self, network_id):
        return self.table[int(network_id)]


class RateReport(ThresholdTable):
    def report(self, rates):
        # An inherited method named like a model is still a method.
        return {k: self._threshold_for_network(k).cpu().numpy() for k in rates}  # ok: a table lookup


def flip_task(lo, hi):
    return [lo, hi][::-1]


def swap_task(lo, hi):
    return [hi, lo]


TASKS = {"flip": flip_task, "swap": swap_task}


def generate_tasks(lo, hi):
    data = {}
    for key in TASKS:
        generator = TASKS[key]
        data[key] = generator(lo, hi)  # ok: a function picked from a table of functions
    return data


class FrozenFeatures2(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(3, 16, 3), nn.AdaptiveAvgPool2d(1), nn.Flatten())

    @torch.no_grad()
    def forward(self, x):
        return self.net(x)


def gather_features(extractor, batches):
    return [extractor(x).cpu().numpy() for x in batches]


def score_features(batches):
    extractor = FrozenFeatures2().eval()
    return gather_features(extractor, batches)  # ok: its forward runs under its own no_grad


def spectrogram_to_wave(spec):
    # A signal transform holds buffers (its window), no parameters.
    inverse = torchaudio.transforms.InverseSpectrogram(n_fft=512, hop_length=128)
    inverse.eval()
    wave = inverse(torch.from_numpy(spec))  # ok: no parameters to record a graph for
    return wave.numpy()


def wave_to_features(model, wave):
    mel = torchaudio.transforms.MelSpectrogram(sample_rate=16000)
    model.eval()
    return model(mel(wave)).argmax(-1).tolist()  # want: TL201 "with grad enabled after"


def test_generator_shapes(layers):
    # A shape self-test: random inputs, stacked, and what models make of them.
    gru, head = nn.GRU(4, 8, layers), nn.Linear(8, 1)
    seq = torch.randn(5, 2, 4)
    hidden = torch.stack([torch.randn(2, 8) for _ in range(layers)])
    out, _ = gru(seq, hidden)  # ok: random inputs
    print(head(out).shape)  # ok: a model's output on random inputs


def score_fakes(gen, disc, loader):
    disc.eval()
    for x in loader:
        print(disc(gen(x)).mean().item())  # want: TL201 "with grad enabled after"


# A parameter annotated as a function of plain values, or one whose
# default is a function of this file, is no model, whatever its name;
# nor is an entry of a table of functions.
def validate_record(record, *, decoder: Callable[[Sequence[int]], str] | None = None):
    if decoder is not None and decoder(record["ids"]) != record["text"]:  # ok: TL201 returns a str
        raise ValueError("text does not decode from the ids")


def test_decoding(ids, detokenize: Optional[Callable[[list], str]]):
    print(detokenize(ids))  # ok: TL201 returns a str


def flip_sample(lo, hi):
    return [random.uniform(lo, hi) for _ in range(4)]


def test_sampler(lo=0.0, hi=1.0, generator: Callable = flip_sample):
    print(generator(lo, hi))  # ok: TL201 defaults to a function of this file


GENERATORS = {"flip": flip_sample, "jitter": lambda lo, hi: [lo, hi]}


def generate_all(n=10):
    for key in sorted(GENERATORS):
        generator = GENERATORS[key]
        print([generator(0.0, 1.0) for _ in range(n)])  # ok: TL201 a function of the table


def test_generator(generator: Callable[[torch.Tensor], torch.Tensor], z):
    generator.eval()
    print(generator(z).mean().item())  # want: TL201 "generator\(z\)"


def fold_metrics(run_dir, load):
    trainer = load(run_dir)
    return trainer.eval_model("prior", plot=False)  # ok: TL201 given only literals


def eval_all_folds(run_dirs, load):
    return [fold_metrics(d, load) for d in run_dirs]  # ok: TL201 its helper runs no forward pass


class BinDecoder(nn.Module):
    """Frozen lookup of bin centres: `from_pretrained` freezes by default."""

    def __init__(self, centres):
        super().__init__()
        self.embedding = nn.Embedding.from_pretrained(centres.unsqueeze(-1))
        self.max_n = self.embedding.weight.numel()

    def forward(self, ids):
        return self.embedding(ids.clamp(max=self.max_n - 1)).squeeze(-1)


class TunedBinDecoder(nn.Module):
    def __init__(self, centres):
        super().__init__()
        self.embedding = nn.Embedding.from_pretrained(centres.unsqueeze(-1), freeze=False)

    def forward(self, ids):
        return self.embedding(ids).squeeze(-1)


def decode_bins(centres, batches):
    frozen, tuned = BinDecoder(centres), TunedBinDecoder(centres)
    frozen.eval()
    tuned.eval()
    for ids in batches:
        print(frozen(ids).tolist())  # ok: TL201 no trainable parameter
    for ids in batches:
        print(tuned(ids).tolist())  # want: TL201 "tuned\(ids\)"


class OneHotCoder(nn.Module):
    """A lookup in a plain tensor made by torch: no parameter to record."""

    def __init__(self, depth):
        super().__init__()
        self.depth = depth
        self.table = torch.eye(depth).cuda()

    def forward(self, labels):
        return self.table.index_select(0, labels.long().view(-1)).float()


class LearnedCoder(nn.Module):
    def __init__(self, depth):
        super().__init__()
        self.table = torch.randn(depth, depth, requires_grad=True)

    def forward(self, labels):
        return self.table.index_select(0, labels.long().view(-1))


def encode_labels(path, depth):
    encoder = OneHotCoder(depth).forward
    learned_encoder = LearnedCoder(depth).forward
    labels = torch.load(path)
    print(encoder(labels).sum(0).tolist())  # ok: TL201 the bound forward of a module without parameters
    print(learned_encoder(labels).sum(0).tolist())  # want: TL201(low) "learned_encoder\(labels\)"


class NumpyMLP:
    """A network written in NumPy: its forward is no model's forward pass."""

    def __init__(self, n):
        self.w = np.zeros((n, n))

    def forward(self, x):
        return np.tanh(x @ self.w)


def numpy_accuracy(nnet, batches):
    correct = 0
    for features, targets in batches:
        probas = nnet.forward(features)  # ok: every call passes a NumpyMLP
        correct += (np.argmax(probas, axis=1) == targets).sum()
    return correct


def report_numpy(X, y):
    mlp = NumpyMLP(4)
    return numpy_accuracy(mlp, [(X, y)]), numpy_accuracy(NumpyMLP(8), [(X, y)])


distance = torch.nn.CosineSimilarity(dim=1)


def train_triplets(model, loader, optimizer, criterion):
    distances = []
    for anchor, positive, negative in loader:
        out_a, out_p, out_n = model(anchor), model(positive), model(negative)
        loss = criterion(out_a, out_p, out_n)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        # ok: a layer of torch's without parameters on outputs already back-propagated
        distances.append(distance.forward(out_a, out_n).data.cpu().numpy())
    return distances


class ScratchRNN:
    """A model written with bare tensors that require grad: calling it records a graph."""

    def __init__(self, n):
        self.w = torch.randn(n, n, requires_grad=True)

    def __call__(self, x):
        return torch.tanh(x @ self.w)


def predict_scratch(net, xs):
    out = []
    for x in xs:
        out.append(net(x).argmax().item())  # want: TL201(high) "in `predict_scratch`"
    return out


def demo_scratch(xs):
    return predict_scratch(ScratchRNN(4), xs)


demo_scratch(load_inputs())


class StretchedMel(torchaudio.transforms.MelSpectrogram):
    """A transform of torchaudio's, extended: windows and filter banks, no parameters."""

    def __init__(self, norm, spread=0.2):
        super().__init__(sample_rate=16000)
        self.stft = torchaudio.transforms.Spectrogram(n_fft=self.n_fft, power=None)
        self.rate = torch.distributions.Uniform(1 - spread, 1 + spread)
        if norm == "db":
            self.norm = torchaudio.transforms.AmplitudeToDB()
        else:
            self.norm = lambda x: (x - x.mean()) / x.std()

    def forward(self, wave):
        spec = self.stft(wave).abs().pow(2)
        if self.training:
            spec = spec * self.rate.sample().item()
        return self.norm(self.mel_scale(spec))


class LearnedMel(torchaudio.transforms.MelSpectrogram):
    """The same transform with a learned projection after it."""

    def __init__(self):
        super().__init__(sample_rate=16000)
        self.proj = nn.Linear(128, 64)

    def forward(self, wave):
        return self.proj(super().forward(wave).transpose(1, 2))


def plot_mels(waves):
    to_mel = StretchedMel("db")
    to_mel.eval()
    for w in waves:
        print(to_mel(w).mean().item())  # ok: a transform's subclass holds no parameters


def plot_learned_mels(waves):
    to_mel = LearnedMel()
    to_mel.eval()
    for w in waves:
        print(to_mel(w).mean().item())  # want: TL201 "to_mel\(w\)"


class Attacker(ABC):
    """An attack: a plain class, whose subclasses' forward back-propagates."""

    def __init__(self, model, eps):
        self.model = model
        self.eps = eps

    def __call__(self, x, y):
        return self.forward(x, y)


class PGD(Attacker):
    def forward(self, x, y):
        x_adv = x.detach().clone()
        x_adv.requires_grad = True
        loss = nn.functional.cross_entropy(self.model(x_adv), y)
        loss.backward()
        return (x_adv + self.eps * x_adv.grad.sign()).detach()


class FGSM(Attacker):
    def forward(self, x, y):
        x_adv = x.detach().clone()
        x_adv.requires_grad = True
        nn.functional.cross_entropy(self.model(x_adv), y).backward()
        return (x_adv + self.eps * x_adv.grad.sign()).detach()


def robust_accuracy(model, loader, kind):
    if kind == "pgd":
        attacker = PGD(model, 0.03)
    else:
        attacker = FGSM(model, 0.03)
    model.eval()
    hits = 0
    for x, y in loader:
        x_adv = attacker(x, y)  # ok: an attack, of a plain class whose forward back-propagates
        hits += (model(x_adv).argmax(1) == y).sum().item()  # want: TL201 "model\(x_adv\)"
    return hits


class GridWorldSolver:
    """Tabular policy iteration: the environment draws the table it is shown."""

    def __init__(self, env):
        self.env = env

    def test(self, episodes):
        table = {}
        for _ in range(episodes):
            table = self.improve(table)
            self.env.show_policy(table)  # ok: an environment's drawing, no model
            self.env.render_values(table)  # ok: likewise
        return table

    def improve(self, table):
        return dict(table)


def make_extractor():
    from torchvision.models import resnet18

    model = resnet18()
    net = model

    def extract(x):
        return net.layer4(net.layer3(net.layer2(net.layer1(x)))).flatten(1)

    model.eval()
    return extract


def make_greedy(table, n_actions):
    def act(state):
        return max(range(n_actions), key=lambda a: table[state, a])

    return act


def features_of(frames):
    resnet = make_extractor()
    policy = make_greedy({}, 4)
    feats, actions = [], []
    for frame in frames:
        feats.append(resnet(frame).detach().numpy())  # want: TL201
        actions.append(policy(frame))  # ok: the closure reads a table, it runs no model
    return feats, actions


def wrap_backbone(net):
    def run(x):
        return net.layer4(net.layer3(x)).flatten(1)

    return run


def pooled_features(frames, model):
    model.eval()
    backbone = wrap_backbone(model)
    return [backbone(frame).detach().numpy() for frame in frames]  # want: TL201
