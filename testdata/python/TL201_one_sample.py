"""TL201: a pass on one sample that the host hands in per call costs one small graph, freed at once."""
import numpy as np
import torch
from torch import nn
from torchvision import transforms


class QNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 2)

    def forward(self, x):
        return self.fc(x)


class Agent:
    def __init__(self):
        self.q = QNet()
        self.q.eval()

    def act(self, state):
        state = torch.FloatTensor(state).unsqueeze(0)
        return self.q(state).argmax(1).item()  # want: TL201(high)

    def act_listed(self, obs):
        return self.q(torch.tensor([obs], dtype=torch.float32)).argmax().item()  # want: TL201(low)

    def act_array(self, obs):
        state_a = np.array([obs], copy=False)
        return self.q(torch.tensor(state_a)).argmax(1).item()  # want: TL201(low)

    def act_preprocessed(self, obs, preprocessor):
        return self.q(preprocessor([obs])).argmax(1).item()  # want: TL201(low)

    def act_reshaped(self, obs):
        x = torch.FloatTensor(obs.reshape(1, -1))
        return self.q(x).detach().cpu().numpy()[0]  # want: TL201(low)

    def values(self, states):
        # A batch the caller hands in: not one sample.
        return self.q(torch.FloatTensor(states)).argmax(1).numpy()  # want: TL201(high)

    def act_kept(self, state, history):
        # One sample, but its outputs are kept with their graph.
        q = self.q(torch.FloatTensor(state).unsqueeze(0))  # want: TL201(medium)
        history.append(q)
        return q.argmax().item()


def super_resolve(model, frames):
    # One frame per call through a transform: an image can be large.
    model.eval()
    to_tensor = transforms.ToTensor()
    out = []
    for frame in frames:
        image = to_tensor(frame).unsqueeze(0)
        out.append(model(image).clamp(0, 1).cpu().numpy())  # want: TL201(high)
    return np.stack(out)



def play(env, steps):
    q_net = QNet()
    # A numpy observation given to the model as a batch of one, reshaped
    # on the host, directly or a name before.
    obs = env.reset()
    for _ in range(steps):
        # Run on every step of the loop: one sample a step, but every step.
        logits = q_net(torch.as_tensor(obs.reshape((1,) + obs.shape)))  # want: TL201(high) "only reach the host"
        obs, reward, done, _ = env.step(int(torch.argmax(logits, dim=1).item()))
        board = obs.reshape(1, 64) + np.random.rand(1, 64) / 10.0
        scores = q_net(torch.from_numpy(board).float())
        obs, reward, done, _ = env.step(int(scores.argmax().item()))


def first_move(q_net, obs):
    # The same batch of one, in a function nothing is seen to call again
    # and again.
    logits = q_net(torch.as_tensor(obs.reshape((1,) + obs.shape)))  # want: TL201(low) "only reach the host"
    return int(torch.argmax(logits, dim=1).item())


class Walker:
    def __init__(self):
        self.q = QNet()

    def policy(self, obs):
        return self.q(torch.FloatTensor(obs).unsqueeze(0)).argmax(1).item()  # want: TL201(medium) "only reach the host"

    def act(self, obs):
        return self.policy(obs)


def walk(env, steps):
    # `walker.act` runs `policy` on every step of the loop.
    walker = Walker()
    obs = env.reset()
    for _ in range(steps):
        obs, reward, done, _ = env.step(walker.act(obs))


def walk_quietly(env, steps):
    walker = Walker()
    obs = env.reset()
    with torch.no_grad():
        for _ in range(steps):
            obs, reward, done, _ = env.step(walker.act(obs))


def play_quietly(env, steps):
    q_net = QNet()
    obs = env.reset()
    with torch.no_grad():
        for _ in range(steps):
            logits = q_net(torch.as_tensor(obs.reshape((1,) + obs.shape)))  # ok: grad disabled around the loop
            obs, reward, done, _ = env.step(int(logits.argmax().item()))


def play_batched(env, steps):
    q_net = QNet()
    obs = env.reset()
    for _ in range(steps):
        logits = q_net(torch.as_tensor(obs.reshape(-1, 64)))  # want: TL201(high) "only reach the host"
        obs, reward, done, _ = env.step(logits.argmax(dim=1).tolist())

if __name__ == "__main__":
    agent, kept = Agent(), []
    s = np.zeros(4, dtype=np.float32)
    agent.act_listed(s)
    agent.act_reshaped(s)
    for step in range(1000):
        agent.act(s)
        agent.values(np.zeros((8, 4), dtype=np.float32))
        agent.act_kept(s, kept)
    super_resolve(QNet(), [])
    play(None, 10)
    play_batched(None, 10)
