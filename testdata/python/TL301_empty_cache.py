"""torch.cuda.empty_cache() per step versus at phase boundaries."""
import gc
import math

import torch
from torch.cuda import empty_cache
from torch.utils.data import DataLoader
import torch.nn.functional as F
from tqdm import tqdm


def train(model, dataset, optimizer, epochs):
    loader = DataLoader(dataset, batch_size=32)
    for epoch in range(epochs):
        for x, y in loader:
            loss = F.cross_entropy(model(x), y)
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()
            torch.cuda.empty_cache()  # want: TL301
        torch.cuda.empty_cache()  # ok: once per epoch, between phases
        evaluate(model, loader)


def evaluate(model, batches):
    with torch.no_grad():
        for i, batch in enumerate(batches):
            model(batch)
            empty_cache()  # want: TL301 "every step"


def steps(model, data_iter, optimizer, max_steps):
    step = 0
    while step < max_steps:
        x, y = next(data_iter)
        optimizer.zero_grad()
        F.mse_loss(model(x), y).backward()
        optimizer.step()
        step += 1
        torch.cuda.empty_cache()  # want: TL301


def sweep(configs, build_model, data):
    for cfg in configs:
        model = build_model(cfg)
        model(data)
        del model
        gc.collect()
        torch.cuda.empty_cache()  # ok: a loop over models, freeing one before the next


def compare(models, data):
    for name, model in models.items():
        print(name, model(data))  # want: TL201 "outputs only reach the host"
        torch.cuda.empty_cache()  # ok: a loop over models


def cleanup():
    torch.cuda.empty_cache()  # ok: not in a loop


def save_all(checkpoints):
    for path in checkpoints:
        torch.save({}, path)
        torch.cuda.empty_cache()  # ok: the loop runs no step


def empty_cache_local():
    pass


def fake(loader):
    for batch in loader:
        empty_cache_local()  # ok: a different function


def lambda_in_loop(model, loader):
    for x in loader:
        model(x)
        cb = lambda: torch.cuda.empty_cache()  # ok: only defined in the loop, not called
        del cb


def train_with_validation(unet, train_dataloader, optimizer, build_pipeline, args):
    for epoch in range(args.epochs):
        for step, batch in enumerate(train_dataloader):
            optimizer.zero_grad()
            unet(batch).mean().backward()
            optimizer.step()
            if step % args.log_every == 0:
                torch.cuda.empty_cache()  # ok: periodic, not every step
        if epoch % args.validation_epochs == 0:
            pipeline = build_pipeline(unet)
            images = [pipeline(p) for p in args.prompts]
            del pipeline
            torch.cuda.empty_cache()  # ok: after validation, once the pipeline is freed


def denoise(unet, latents, timesteps, thresholds):
    for i, t in enumerate(timesteps):
        noise = unet(latents, t)  # want: TL201(medium) "reach no backward"
        if i in thresholds:
            del noise
            torch.cuda.empty_cache()  # ok: only on the selected refinement steps


def train_step_cleanup(model, loader, optimizer):
    for batch in loader:
        out = model(batch)
        loss = out.mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        del loss, out
        torch.cuda.empty_cache()  # want: TL301


def predict_chunks(model, chunks_per_doc):
    for chunks in chunks_per_doc:
        outs = [model(c) for c in chunks]  # want: TL201
        torch.cuda.empty_cache()  # want: TL301


class Restorer:
    def __init__(self, net):
        self.net = net

    def restore(self):
        with torch.no_grad():
            self.output = self.net(self.lq)

    def restore_one(self, frame):
        return self.net(frame)

    def restore_clip(self, clip):
        return [self.net(frame) for frame in clip]

    def restore_video(self, frames):
        outs = []
        for frame in frames:
            outs.append(self.net(frame))
        return outs

    def validation(self, dataset):
        for idx in range(len(dataset)):
            self.lq = dataset[idx]
            self.restore()
            del self.output
            torch.cuda.empty_cache()  # want: TL301 "every iteration of this loop, each of which runs the model"

    def clips(self, clips):
        for clip in clips:
            self.restore_clip(clip)
            torch.cuda.empty_cache()  # ok: once per clip, whose frames the method runs in a loop of its own

    def videos(self, videos):
        for frames in videos:
            self.restore_video(frames)
            torch.cuda.empty_cache()  # ok: the model runs in the method's own loop, once per frame; this is once per video


def restore_faces(restorer: Restorer, faces):
    for face in faces:
        restorer.restore_one(face)
        torch.cuda.empty_cache()  # want: TL301


class Scorer(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = torch.nn.Linear(8, 1)

    def forward(self, x):
        return self.proj(x)

    @torch.no_grad()
    def score_all(self, candidates):
        scores = []
        for c in candidates:
            scores.append(self.forward(c))
            torch.cuda.empty_cache()  # want: TL301
        return scores

    @torch.no_grad()
    def score_augmented(self, image, augmentations):
        scores = []
        for aug in augmentations:
            scores.append(super().forward(aug(image)))
            torch.cuda.empty_cache()  # want: TL301
        return scores


def per_position_scores(net, loader):
    for x, y in loader:
        out = net(x)  # want: TL201(low) "reach no backward"
        for t in range(len(out)):
            err = (out[t] - y[t]).abs().mean()
            torch.cuda.empty_cache()  # want: TL301 "every step of the loop at line \d+"
            if t == len(out) - 1:
                torch.cuda.empty_cache()  # want: TL301 "loop at line \d+"


@torch.no_grad()
def progressive(net, images, sizes, every):
    for i, image in enumerate(images):
        out = net(image)
        if i < every:
            torch.cuda.empty_cache()  # want: TL301
        if out is not None and i >= 0:
            torch.cuda.empty_cache()  # want: TL301
        if i == 0:
            pass
        else:
            torch.cuda.empty_cache()  # want: TL301
        if not i:
            torch.cuda.empty_cache()  # ok: on the first iteration only
        if i != len(images) - 1:
            continue
        torch.cuda.empty_cache()  # ok: after the last image only


def sampled(net, images, every):
    for i, image in enumerate(images):
        net(image)
        if i % every:
            continue
        torch.cuda.empty_cache()  # ok: once every `every` images


def calibrate(layers, inps):
    for i in range(len(layers)):
        layer = layers[i].cuda()
        inps = layer(inps)
        layers[i] = layer.cpu()
        torch.cuda.empty_cache()  # ok: once per layer of a one-off calibration, a phase boundary


def quantize_blocks(model, inps, quantize):
    for block in model.blocks:
        inps = block(inps)
        quantize(block)
        torch.cuda.empty_cache()  # ok: once per block


def calibrate_samples(layers, samples):
    for i in range(len(layers)):
        layer = layers[i].cuda()
        for j in range(len(samples)):
            samples[j] = layer(samples[j])
            torch.cuda.empty_cache()  # want: TL301
        torch.cuda.empty_cache()  # ok: once per layer


def evaluate_each_epoch(model, val_loader, train, epochs):
    for epoch in range(epochs):
        train(model)
        score = validate(model, val_loader)
        torch.cuda.empty_cache()  # ok: once per epoch; validate runs the model in its own loop


def validate(model, val_loader):
    with torch.no_grad():
        return sum(model(x).sum() for x in val_loader)


@torch.no_grad()
def validate_at(model, loader, batch_size):
    model(torch.zeros(batch_size, 3, 224, 224))
    return [model(x) for x in loader]


def validate_with_retries(model, loader, batch_size):
    while batch_size:
        try:
            torch.cuda.empty_cache()  # ok: once per attempt at a whole validation, whose warm-up pass runs once
            return validate_at(model, loader, batch_size)
        except RuntimeError:
            batch_size //= 2


def evaluate_one(model, loader):
    torch.cuda.empty_cache()
    with torch.no_grad():
        for x, _ in loader:
            model(x)


def evaluate_all(model, dataloaders):
    # ok: one iteration per dataset, each a whole evaluation
    for i, dataloader in enumerate(dataloaders):
        evaluate_one(model, dataloader)


def first_batch_only(model, loader):
    for x, _ in loader:
        model(x)
        torch.cuda.empty_cache()  # ok: the loop runs once
        break


@torch.no_grad()
def infer_with_retry(model, batches):
    outputs = []
    for batch in batches:
        try:
            out = model(batch.cuda())
        except RuntimeError as exc:
            if "out of memory" not in str(exc):
                raise
            torch.cuda.empty_cache()  # ok: only on the batches that ran out of memory, before a smaller retry
            out = torch.cat([model(x.unsqueeze(0).cuda()) for x in batch])
        outputs.append(out.cpu())
        torch.cuda.empty_cache()  # want: TL301
    return outputs


def train_skipping_nan(model, loader, optimizer, criterion):
    skipped = 0
    for x, y in loader:
        loss = criterion(model(x.cuda()), y.cuda())
        if math.isnan(loss.item()):
            optimizer.zero_grad()
            torch.cuda.empty_cache()  # ok: a recovery path that skips the step
            skipped += 1
            if skipped > 100:
                raise ValueError("loss is NaN")
            else:
                continue
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def train_epochs_clearing(model, loader, optimizer, epochs):
    for epoch in range(epochs):
        optimizer.zero_grad()
        for x in loader:
            model(x).sum().backward()
            optimizer.step()
            optimizer.zero_grad()
        torch.cuda.empty_cache()  # ok: once per epoch, after its steps


def train_verbose(model, loader, optimizer, criterion, verbose):
    for x, y in loader:
        loss = criterion(model(x.cuda()), y.cuda())
        if verbose:
            torch.cuda.empty_cache()  # want: TL301 "every step"
            print(torch.cuda.memory_allocated())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def show_example(model, loader):
    x, y = next(iter(loader))
    print(model(x.cuda()).argmax(-1)[:4], y[:4])


def train_showing_examples(model, loader, valid_loader, optimizer, criterion, epochs):
    epoch = 0
    while epoch < epochs:
        for x, y in loader:
            optimizer.zero_grad()
            criterion(model(x.cuda()), y.cuda()).backward()
            optimizer.step()
        torch.cuda.empty_cache()  # ok: once per epoch, after its loop of steps
        with torch.no_grad():
            show_example(model, valid_loader)
        epoch += 1


def train_epoch(model, loader, optimizer):
    for x, y in loader:
        optimizer.zero_grad()
        loss = ((model(x) - y) ** 2).mean()
        loss.backward()
        optimizer.step()
    torch.cuda.empty_cache()  # ok: once per epoch, after the epoch's own loop
    return loss.item()


def cross_validate(folds, make_model, make_stopper, epochs):
    for fold, train_loader in enumerate(folds):
        model = make_model()
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
        stopper = make_stopper(3, path=f"fold{fold}.pt")  # an object made per fold, of a class not known here
        for epoch in range(epochs):
            if stopper(train_epoch(model, train_loader, optimizer)):  # ok: TL301 each call runs a whole epoch
                break


def validate_with_bar(model, val_loader):
    # The loader through a progress bar bound a line before.
    model.eval()
    pbar = tqdm(enumerate(val_loader), total=len(val_loader))
    with torch.no_grad():
        for i, (x, y) in pbar:
            pbar.set_description(f"{(model(x).argmax(1) == y).float().mean().item():.3f}")
            torch.cuda.empty_cache()  # want: TL301 "every step of this loop"


class Agent:
    def __init__(self, policy):
        self.policy = policy
        self.optimizer = torch.optim.Adam(policy.parameters())

    def update(self, loss):
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()


def reinforce(policy, sample_episode, episodes):
    agent = Agent(policy)
    for _ in range(episodes):
        log_probs, returns = sample_episode(agent.policy)
        rl_loss = -(log_probs * returns).sum()
        agent.update(rl_loss)
        torch.cuda.empty_cache()  # want: TL301 "every step of this loop"


@torch.no_grad()
def track(net, loader, make_tracker):
    tracker = None
    for images, info in loader:
        frame_id = info[2].item()
        if frame_id == 1:
            torch.cuda.empty_cache()  # ok: on the first frame of each video only
            tracker = make_tracker()
        video = info[0]
        if video is not None:
            torch.cuda.empty_cache()  # want: TL301
        if frame_id > 0:
            torch.cuda.empty_cache()  # want: TL301
        if frame_id == tracker:
            torch.cuda.empty_cache()  # want: TL301
        tracker.update(net(images))
