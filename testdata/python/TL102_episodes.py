"""TL102: an episode loop, stepping an environment on every iteration,
is a loop of steps: a list it fills with the policy's values keeps every
step's graph until the update, which here detaches them. A loop over the
parts of one pass (tokens, chunks) is not, and a list of log-probabilities
back-propagated at the episode's end is stored on purpose."""
import torch
from torch import distributions, nn


class ActorCritic(nn.Module):
    def __init__(self):
        super().__init__()
        self.actor = nn.Linear(4, 2)
        self.critic = nn.Linear(4, 1)

    def forward(self, state):
        return self.actor(state), self.critic(state)


def update(policy, states, advantages, optimizer):
    advantages = advantages.detach()
    logits, _ = policy(states)
    loss = -(logits.log_softmax(-1).max(-1).values * advantages).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()


def rollout(env, policy, optimizer):
    states, values, rewards = [], [], []
    state, done = env.reset(), False
    while not done:
        state = torch.as_tensor(state, dtype=torch.float32).unsqueeze(0)
        logits, value = policy(state)  # want: TL201(high) "reach no backward"
        action = distributions.Categorical(logits=logits).sample()
        state, reward, done, _ = env.step(action.item())
        states.append(state)
        values.append(value)  # want: TL102(high) "no backward\(\) of this step"
        rewards.append(reward)
    returns = torch.tensor(rewards).flip(0).cumsum(0).flip(0)
    update(policy, torch.cat(states), returns - torch.cat(values).squeeze(-1), optimizer)


def reinforce_episode(env, policy, optimizer):
    log_probs, rewards = [], []
    state, done = env.reset(), False
    while not done:
        logits, _ = policy(torch.as_tensor(state, dtype=torch.float32))
        dist = distributions.Categorical(logits=logits)
        action = dist.sample()
        state, reward, done, _ = env.step(action.item())
        log_probs.append(dist.log_prob(action))  # ok: back-propagated at the episode's end
        rewards.append(reward)
    loss = -(torch.stack(log_probs) * torch.tensor(rewards)).sum()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()


def encode_tokens(encoder, tokens):
    outputs = []
    for tok in tokens:
        outputs.append(encoder(tok))  # ok: the parts of one pass, handed back
    return torch.stack(outputs)


def main(env, tokens):
    policy = ActorCritic()
    optimizer = torch.optim.Adam(policy.parameters())
    for _ in range(10):
        rollout(env, policy, optimizer)
        reinforce_episode(env, policy, optimizer)
    encode_tokens(nn.Linear(4, 4), tokens)
