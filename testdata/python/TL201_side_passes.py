"""TL201: a side pass of a network in evaluation mode, in a loop that trains another."""
import torch
from torch import nn
from torchvision.utils import save_image


def separate(encoder, masker, batches, steps):
    encoder.eval()
    opt = torch.optim.Adam(masker.parameters())
    for step, (refs, mixed, clean) in enumerate(batches):
        codes = []
        for r in refs:
            codes.append(encoder(r))  # want: TL201 "detached or read on the host before any backward"
        cond = torch.stack(codes).detach()
        loss = nn.functional.l1_loss(mixed * masker(mixed, cond), clean)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step == steps:
            break


def distil(teacher, student, batches):
    teacher.eval()
    opt = torch.optim.SGD(student.parameters(), lr=0.1)
    for x, y in batches:
        soft = teacher(x)  # want: TL201 "detached or read on the host"
        loss = nn.functional.kl_div(student(x).log_softmax(1), soft.detach().softmax(1), reduction="batchmean")
        opt.zero_grad()
        loss.backward()
        opt.step()



def distil_rebound(teacher, student, batches):
    teacher.eval()
    opt = torch.optim.SGD(student.parameters(), lr=0.1)
    for x, y in batches:
        out = student(x)
        soft = teacher(x)  # want: TL201 "the next statement, `soft = soft.detach\(\)`, drops the output's graph, which frees them, but each pass still holds them all at its peak"
        # the teacher's targets, without their history
        soft = soft.detach()
        loss = nn.functional.kl_div(out.log_softmax(1), soft.softmax(1), reduction="batchmean")
        opt.zero_grad()
        loss.backward()
        opt.step()

def distil_inline(teacher, student, batches):
    teacher.eval()
    opt = torch.optim.SGD(student.parameters(), lr=0.1)
    for x, y in batches:
        soft = teacher(x).detach()  # ok: detached where it is made, its graph is freed at once
        loss = nn.functional.kl_div(student(x).log_softmax(1), soft.softmax(1), reduction="batchmean")
        opt.zero_grad()
        loss.backward()
        opt.step()


def fine_tune_frozen_bn(backbone, head, batches):
    backbone.eval()  # batch norm statistics kept, weights still trained
    opt = torch.optim.SGD(list(backbone.parameters()) + list(head.parameters()), lr=0.01)
    for x, y in batches:
        feats = backbone(x)  # ok: its graph reaches the loss and its backward
        loss = nn.functional.cross_entropy(head(feats), y)
        opt.zero_grad()
        loss.backward()
        opt.step()


def adversarial(gen, disc, batches):
    gen.eval()
    opt = torch.optim.Adam(disc.parameters())
    for real in batches:
        fake = gen(torch.randn(real.shape[0], 16)).detach()  # ok: detached where it is made
        loss = disc(fake).mean() - disc(real).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()


def kept_features(encoder, head, batches):
    encoder.eval()
    opt = torch.optim.SGD(head.parameters(), lr=0.1)
    for x, y in batches:
        feats = encoder(x)  # ok: the head's loss back-propagates into the encoder's graph too
        loss = nn.functional.cross_entropy(head(feats), y)
        opt.zero_grad()
        loss.backward()
        opt.step()


# A generator its class switches to evaluation mode in another method,
# sampled every few steps of the training method.
class GAN:
    def __init__(self):
        self.G = nn.Sequential(nn.Linear(16, 64), nn.Tanh())
        self.D = nn.Sequential(nn.Linear(64, 1))
        self.g_opt = torch.optim.Adam(self.G.parameters())

    def fit(self, batches, fixed_z):
        for i, real in enumerate(batches):
            loss = -self.D(self.G(torch.randn(8, 16))).mean()  # ok: back-propagated
            self.g_opt.zero_grad()
            loss.backward()
            self.g_opt.step()
            if i % 500 == 0:
                grid = self.G(fixed_z)  # want: TL201 "only reach the host"
                save_image(grid.data.view(-1, 1, 8, 8), "step_%d.png" % i)

    def restore(self, path):
        self.G.load_state_dict(torch.load(path))
        self.G.eval()


# A Grad-CAM: the class keeps its model in evaluation mode to explain it,
# and back-propagates what the model gives.
class GradCam:
    def __init__(self, model, layer):
        self.model = model
        self.model.eval()
        self.extractor = FeatureHook(self.model, layer)

    def forward(self, x):
        return self.model(x)  # ok: a class that back-propagates its model's outputs

    def __call__(self, x, index):
        features, out = self.extractor(x)
        one_hot = torch.zeros_like(out)
        one_hot[0, index] = 1
        self.model.zero_grad()
        (one_hot * out).sum().backward(retain_graph=True)
        return self.extractor.gradients[-1], features[-1]
