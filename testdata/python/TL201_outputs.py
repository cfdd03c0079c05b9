# Evidence from outputs and from what the code does with a value: a
# forward pass whose outputs only reach the host is inference, whatever
# its function is called; a value is a module by its uses, not its name.
import torch
import torch.nn as nn
import torch.nn.functional as F
import matplotlib.pyplot as plt
import numpy as np


class Agent:
    def __init__(self, actor, critic, target_critic):
        self.actor = actor
        self.critic = critic
        self.target_critic = target_critic

    def select_action(self, state):
        return self.actor(torch.FloatTensor(state)).cpu().data.numpy()  # want: TL201 "outputs only reach the host"

    def act(self, state):
        action = self.actor(state)  # ok: the action tensor is returned; a caller may back-propagate through it
        return action

    def update(self, opt, s, a, r, s2):
        target = r + 0.99 * self.target_critic(s2).detach()  # ok: the detached value feeds a loss
        loss = F.mse_loss(self.critic(s, a), target)
        opt.zero_grad()
        loss.backward()
        opt.step()


class Solver:
    def train(self, loader, optimizer, steps):
        fixed = next(iter(loader))
        for step in range(steps):
            x = next(iter(loader))
            loss = (self.g12(x) - x).pow(2).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            if step % 100 == 0:
                fake = self.g12(fixed)  # want: TL201 "outputs only reach the host"
                plt.imshow(fake.data.cpu().numpy()[0])


def collect(policy, states):
    actions = []
    for s in states:
        actions.append(policy(s).cpu())  # ok: kept in a list this file hands on
    return actions


def detect(detector, image):
    boxes = detector(image)  # want: TL201 "outputs only reach the host"
    print(f"found {boxes.shape[0]} boxes")
    return boxes.tolist()


# Calls that look like forward passes and are not.
def make_noise(n, d):
    return torch.randn(n, d, requires_grad=True)


def sample(generator, x):
    generator.eval()
    z = make_noise(4, 8)  # ok: built from sizes alone, not a forward pass
    pad = nn.ReplicationPad2d([0, 0, 2, 2])
    x = pad(x)  # ok: a layer without parameters
    y = generator(x, z)  # want: TL201 "after `generator.eval\(\)`"
    return y.data.cpu()


class NetA(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.fc = nn.Linear(4, n)

    def forward(self, x):
        return self.fc(x)


def get_model(name, n_classes):
    model = {"a": NetA}[name]
    model = model(n_classes)  # ok: a class taken from a table, constructed
    return model


def test_model(x):
    model = get_model("a", 3)
    model.eval()
    out = model(x)  # want: TL201 "in `test_model`"
    return out.argmax(1)


# A model its class only switches to evaluation mode.
class Synth:
    def __init__(self, model):
        self.model = model

    def load(self):
        self.model.eval()

    def synthesize(self, x):
        out = self.model(x)  # want: TL201 "on `self.model`"
        return out.detach().cpu().numpy()


class Finetuner:
    def __init__(self, model):
        self.model = model

    def freeze(self):
        self.model.eval()

    def unfreeze(self):
        self.model.train()

    def embed(self, x):
        return self.model(x)  # ok: the class also trains this model, and the output is handed back


# Attributes bound more than once, or through a move.
class Policy(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 2)

    def forward(self, s):
        return self.fc(s)

    def sample(self, s):
        return self(s)


class Runner:
    def __init__(self):
        self.policy = Policy().to("cpu")
        self.backup = None

    def load(self):
        self.backup = Policy()

    def predict(self, state):
        self.policy.eval()
        action = self.policy.sample(state)  # want: TL201 "through `Policy.sample`"
        return action.detach().cpu().numpy()

    def predict_backup(self, state):
        self.backup.eval()
        action = self.backup.sample(state)  # want: TL201 "through `Policy.sample`"
        return action.detach().cpu().numpy()


# A helper nested in the evaluating function.
def score(model, loader):
    model.eval()

    def get_pred(x):
        return F.softmax(model(x), 1)  # want: TL201 "in `get_pred`, which `score` calls only after `model.eval\(\)`"

    return [get_pred(b).data.cpu().numpy() for b in loader]  # ok: reported in `get_pred`, where the no_grad goes


# A model's own method that switches to evaluation mode itself.
class LM(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Linear(2, 2)

    def forward(self, idx):
        return self.body(idx)

    def generate(self, idx, n):
        self.eval()
        for _ in range(n):
            logits = self.body(idx)  # want: TL201 "after `self.eval\(\)`"
            idx = torch.cat((idx, logits.argmax(-1, keepdim=True)), dim=1)
        return idx

    def logits(self, idx):
        return self(idx)  # ok: grad mode is the caller's to set


lm = LM()
m = lm.to("cpu")
m.eval()
print(m.generate(torch.zeros((1, 1), dtype=torch.long), 10))  # ok: reported in `generate`, which switches to evaluation itself


# A method of this file whose forward pass only reaches its return value,
# read on the host by the caller.
class Captioner(nn.Module):
    def __init__(self):
        super().__init__()
        self.head = nn.Linear(8, 100)

    def forward(self, x):
        return self.head(x)

    def caption(self, x):
        logits = self(x)  # want: TL201 "only reach the host"
        return logits.argmax(-1)


captioner = Captioner()
print(captioner.caption(torch.load("features.pt", map_location="cpu")))  # ok: reported in `Captioner.caption`, where the no_grad goes


# Look-alikes: a helper that also keeps its forward pass for a later
# backward; a policy's `evaluate` whose log-probability is back-propagated;
# a critic switched to evaluation mode while the actor trains.
class ActorCritic:
    def __init__(self, actor, critic):
        self.actor = actor
        self.critic = critic
        self.log_probs = None

    def choose_action(self, state):
        probs = self.actor(state)
        dist = torch.distributions.Categorical(probs)
        action = dist.sample()
        self.log_probs = dist.log_prob(action)
        return action.item()

    def evaluate(self, state):
        mean = self.actor(state)  # ok: the result is back-propagated by `learn`
        return torch.distributions.Normal(mean, 1.0).rsample()

    def learn(self, opt, state, reward):
        opt.zero_grad()
        loss = -(self.log_probs * reward).mean() - self.evaluate(state).mean()
        loss.backward()
        opt.step()

    def update_actor(self, opt, state):
        self.critic.eval()
        mu = self.actor(state)  # ok: another model than the one switched to evaluation mode
        self.actor.train()
        loss = -self.critic(state, mu).mean()  # ok: back-propagated below
        opt.zero_grad()
        loss.backward()
        opt.step()


def play(actor, critic, env, steps):
    agent = ActorCritic(actor, critic)
    state = env.reset()
    for _ in range(steps):
        action = np.asarray(agent.choose_action(state))  # ok: the helper keeps its forward pass for a backward
        state = env.step(action)


# A class held in a variable or a parameter, constructed: not a forward
# pass; the forward pass that follows is.
def check_discriminator(Discriminator, conv_dim, x):
    D = Discriminator(conv_dim)  # ok: builds the model it then switches
    D.eval()
    return D(x).argmax(1)  # want: TL201 "after `D.eval\(\)`"


def get_segmenter(model, n_classes):
    return model(n_classes)  # ok: a function that builds and returns a model


# The same class, moved or switched as it is built: the moves return the
# module, and a module's own method shows that one was built.
def load_for_eval(Model, envs, path, device):
    net = Model(envs).to(device)  # ok: builds the model, moves it, loads it
    net.load_state_dict(torch.load(path, map_location=device))
    net.eval()
    return net


def evaluate_checkpoint(Model, cfg, x):
    net = Model(cfg).eval()  # ok: builds the model it switches to evaluation mode
    return net(x).argmax(1)  # want: TL201 "in `evaluate_checkpoint`"


def score_on(Model, cfg, x, device):
    net = Model(cfg).cuda().float().eval()  # ok: builds, moves and switches it
    return net(x.to(device)).argmax(1)  # want: TL201 "outputs only become indices"


# A forward pass whose output is moved stays one.
def predict_on(model, x, device):
    model.eval()
    y = model(x).to(device)  # want: TL201 "in `predict_on`"
    return y.argmax(1)


# Gradients asked for through a helper nested in the evaluating function.
def neumann_step(model, batch, params):
    model.eval()
    loss = F.cross_entropy(model(batch[0]), batch[1])  # ok: `hvp` asks for gradients of it

    def hvp(v):
        g = torch.autograd.grad(loss, params, create_graph=True)
        return torch.autograd.grad(g, params, v)

    return hvp(params)


# An ONNX Runtime model, taken by its annotation: no torch graph.
class OnnxRuntimeModel:
    def __call__(self, **inputs):
        return [inputs]


class OnnxPipeline:
    def __init__(self, text_encoder: OnnxRuntimeModel):
        self.register(text_encoder=text_encoder)

    def register(self, **parts):
        for name, part in parts.items():
            setattr(self, name, part)

    def encode(self, ids):
        embeds = self.text_encoder(input_ids=ids.astype(np.int32))[0]  # ok: an ONNX Runtime session
        return np.repeat(embeds, 2, axis=0).tolist()


# `.numpy()` raises on a tensor that requires grad: an output that reaches
# it with its history kept shows that the model records no graph (a
# frozen TorchScript feature network).
def feature_rows(path, loader):
    detector = torch.jit.load(path).eval()
    return [detector(images).cpu().numpy() for images in loader]  # ok: `.numpy()` works, so no graph


class Embedder:
    # `.numpy()` under a no_grad of its own shows nothing of the model: the
    # same network, run with grad on in another method, records its graph.
    def __init__(self, net):
        self.net = net

    def rows(self, loader):
        with torch.no_grad():
            return [self.net(x).cpu().numpy() for x in loader]  # ok: under no_grad

    def evaluate(self, loader):
        self.net.eval()
        return [self.net(x).argmax(1).tolist() for x in loader]  # want: TL201 "with grad enabled in `evaluate`"


class FeatureRows:
    def __init__(self):
        self.rows = []

    def add(self, x):
        self.rows.append(x.float().cpu().numpy())


def feature_table(path, loader):
    table = FeatureRows()
    detector = torch.jit.load(path).eval()
    for images in loader:
        features = detector(images)  # ok: `FeatureRows.add` calls `.numpy()` on it
        table.add(features)
    return table.rows


class GatheredRows:
    # On one process the features themselves reach `.numpy()`; gathered
    # from several, a stack of their copies does, which keeps the history.
    def __init__(self):
        self.rows = []

    def add(self, x, num_gpus=1):
        if num_gpus > 1:
            x = torch.stack([x.clone() for _ in range(num_gpus)], dim=1).flatten(0, 1)
        self.rows.append(x.cpu().numpy())

    def add_detached(self, x):
        if x.requires_grad:
            x = x.detach()
        self.rows.append(x.cpu().numpy())


def gathered_table(path, model, loader):
    table = GatheredRows()
    detector = torch.jit.load(path).eval()
    model.eval()
    for images in loader:
        features = detector(images)  # ok: `GatheredRows.add` calls `.numpy()` on it on one path
        table.add(features)
        table.add_detached(model(images))  # want: TL201 "after `model.eval\(\)`"
    return table.rows


# A tensor index (several indices, a slice) keeps the history, so
# `.numpy()` of it shows no graph too.
def first_maps(path, loader):
    detector = torch.jit.load(path).eval()
    for images in loader:
        maps = detector(images)  # ok: `maps[0, 0, :, :].numpy()` works, so no graph
        plt.imshow(maps[0, 0, :, :].numpy())


def first_rows(model, loader):
    model.eval()
    for images in loader:
        outputs = model(images)  # want: TL201 "after `model.eval\(\)`"
        plt.imshow(outputs[0].cpu().numpy())  # one index: an entry of a tuple of outputs may be an integer tensor


# What works on any output proves nothing.
def detached_rows(model, loader):
    model.eval()
    return [model(x).detach().cpu().numpy() for x in loader]  # want: TL201 "after `model.eval\(\)`"


def class_rows(model, loader):
    model.eval()
    return [model(x).to(torch.long).numpy() for x in loader]  # want: TL201 "after `model.eval\(\)`"


# An entry of the outputs may be an integer tensor: its `.numpy()` works
# whatever the model records.
def detect_boxes(model, image):
    model.eval()
    outputs = model(image)  # want: TL201 "after `model.eval\(\)`"
    labels = outputs[0]["labels"].cpu().numpy()
    scores = outputs[0]["scores"].detach().cpu().numpy()
    return labels, scores


def forced_rows(model, loader):
    model.eval()
    return [model(x).cpu().numpy(force=True) for x in loader]  # want: TL201 "after `model.eval\(\)`"


def discriminator_step(discriminator, opt_d, real, valid):
    opt_d.zero_grad()
    scores = np.squeeze(discriminator(real))  # ok: TL201 np.squeeze calls the tensor's squeeze: the loss below back-propagates it
    loss = F.binary_cross_entropy(scores, valid)
    loss.backward()
    opt_d.step()
    return loss.item()


def show_samples(generator, z):
    generator.eval()
    plt.imshow(np.squeeze(generator(z)).detach().numpy())  # want: TL201 "generator\(z\)"


def predicted_classes(model, loader):
    model.eval()
    out = []
    for x in loader:
        probas = model(x)  # ok: TL201 np.argmax reads it as an array, which raises for a tensor with a graph: none is recorded
        out.append(np.argmax(probas, axis=1))
    return out


def predicted_classes_read(model, loader):
    model.eval()
    return [np.argmax(model(x).detach().numpy(), axis=1) for x in loader]  # want: TL201 "model\(x\)"


def predicted_squeezed(model, loader):
    model.eval()
    return [np.squeeze(model(x)).argmax(1).tolist() for x in loader]  # want: TL201 "model\(x\)"
