/**
 * Passwords that top every published breach frequency list, plus the "complex-looking" variants people
 * reach for when a form demands a capital, a digit and a symbol. Compared case-insensitively, so
 * "Password1!" is refused as well as "password1!". Kept as data (no file reads) so the check is pure and
 * runs the same in every instance.
 */
const LIST = `
123456 123456789 12345678 1234567890 12345 1234567 1234 123123 111111 000000 654321 666666 121212 112233
123321 159753 147258369 123654 987654321 11111111 00000000 12341234 88888888 87654321 99999999 11223344
1q2w3e4r 1q2w3e4r5t 1qaz2wsx 1qazxsw2 zaq12wsx zaq1zaq1 qwerty qwerty123 qwerty1 qwertyuiop qwerty12
qwertyu qwer1234 asdfghjkl asdfgh asdf1234 zxcvbnm zxcvbnm1 q1w2e3r4 q1w2e3r4t5 qazwsx qazwsxedc
1234qwer abcd1234 abc123 abc12345 abcdefg abcdefgh a1b2c3d4 aa123456 password password1 password12
password123 password1234 password! password1! password123! passw0rd passw0rd! passw0rd1 p@ssword
p@ssw0rd p@ssw0rd1 p@ssw0rd! p@ssword1 p@55w0rd pa$$word pa$$w0rd pass1234 pass@123 pass@word1
password@123 password#1 passwords letmein letmein1 letmein! letmein123 welcome welcome1 welcome! welcome1!
welcome123 welcome@123 welcome2024 welcome2025 welcome2026 iloveyou iloveyou1 iloveyou! iloveyou1!
iloveyou2 monkey monkey123 dragon dragon123 master master123 sunshine sunshine1 sunshine! princess
princess1 football football1 baseball basketball soccer hockey superman batman batman123 spiderman
starwars pokemon charlie freedom whatever trustno1 shadow michael jennifer jordan23 hunter2 hunter123
harley ranger buster thomas tigger robert daniel andrew joshua matthew jessica ashley michelle
nicole hannah amanda summer winter autumn spring computer internet secret secret123 security
administrator admin admin123 admin1234 admin@123 admin123! adminadmin root toor changeme changeme1
changeme! changeme123 default guest login login123 test test123 test1234 testing testing123 temp123
temppass temp1234 user1234 username qwerty!@# !qaz2wsx !qaz@wsx 1q2w3e! 1q2w3e4r! 1qaz!qaz
q1w2e3r4! qwerty1! qwerty123! qwerty12! qwertz qwertz123 azerty azerty123 asdf!234 zxcv1234
trustme access access14 mustang mustang1 ferrari porsche corvette chelsea liverpool arsenal
manchester barcelona realmadrid juventus yankees cowboys lakers steelers eagles raiders dolphins
loveme lovely loveyou lovers mylove babygirl baby123 angel angel123 angels beautiful blessed
jesus jesus123 jesus1 god123 christ heaven blink182 metallica nirvana slipknot eminem
michael1 jordan michael23 george charlie1 jackson anthony william daniel1 liverpool1 chelsea1
flower flowers butterfly rainbow cookie chocolate cheese banana orange purple yellow silver golden
diamond crystal hello hello123 hello1 hellohello helloworld hello@123 goodbye bonjour
killer killer1 hacker matrix ninja samurai dragonball naruto sasuke onepiece minecraft roblox
fortnite zelda mario nintendo playstation xbox360 gaming gamer google google123 facebook
linkedin twitter instagram youtube yahoo hotmail outlook apple apple123 samsung iphone android
1password 1password! 2password 7777777 777777 555555 444444 333333 222222 1111111 11111 112211
010101 101010 202020 696969 123abc 123qwe 123qweasd 123qweasdzxc 123456a 123456q 123456789a
a123456 a12345678 q123456 qwe123 qwe123! zxc123 asd123 qaz123 1234abcd abcd@1234 abc@123
abc123! abc1234! summer2024 summer2025 summer2026 winter2024 winter2025 spring2025 autumn2025
january february march2025 december monday friday sunday letmein2 ilovegod ihateyou fuckyou
fuckoff asshole bitch motherfucker superstar rockstar pussycat kitten kitty puppy doggie
tinkerbell snoopy scooby mickey minnie garfield pepper ginger maggie molly bailey sophie buddy
max123 rocky rocky123 tiger tiger123 lion123 eagle1 falcon phoenix thunder lightning storm
london paris newyork chicago boston dallas texas california florida canada england scotland
ireland france germany america usa123 london123 qwerty2024 password2024 password2025 password2026
pa55word pa55w0rd p4ssw0rd p4ssword passwort passwort1 motdepasse contrasena senha123 haslo123
wachtwoord salasana lozinka parola sifre 1q2w3e4r5t6y 1q2w3e4r5t6y7u 1qazxsw23edc zaq!2wsx
qwaszx 1qaz2wsx3edc q1w2e3 thereisnospoon opensesame letmein12 iloveu iloveu2 trustno1!
welcome12 welcome12! abcdef abcdef1 abcdef123 aaaaaa aaaaaaaa aaaaaa1 qqqqqq zzzzzz asdasd
asdasd123 qweqwe qweasd qweasdzxc 1a2b3c 1a2b3c4d5e zaq1xsw2 xsw2zaq1 password.1 password_1
password-1 Password1 Passw0rd Welcome1 Qwerty123 Letmein1 Monkey123 Dragon123 Master123
callumreyes whatweowethedead thrillercircle
`;

export const COMMON_PASSWORDS: ReadonlySet<string> = new Set(
  LIST.split(/\s+/)
    .filter(Boolean)
    .map((p) => p.toLowerCase()),
);

export function isCommonPassword(password: string): boolean {
  return COMMON_PASSWORDS.has(password.normalize('NFC').toLowerCase());
}

export const COMMON_PASSWORD_MESSAGE =
  'This password is one of the most commonly used and easily guessed. Please choose a different one.';
