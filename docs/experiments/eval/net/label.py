import subprocess,sys,os
# label.py VARIANT IN OUT : FS static eval (white side, cp) per FEN
v,inp,outp=sys.argv[1:4]
fens=[l.strip() for l in open(inp) if l.strip()]
seen=set();u=[]
for f in fens:
    k=' '.join(f.split()[:4])
    if k not in seen: seen.add(k);u.append(f)
fens=u
out=open(outp,'w');n=0
for i in range(0,len(fens),20000):
    ch=fens[i:i+20000]
    txt='setoption name VariantPath value '+os.environ.get('FSF_INI','../shared/tools/fairy-variants.ini')+'\nsetoption name UCI_Variant value %s\n'%v+''.join('position fen %s\neval\n'%f for f in ch)+'isready\nquit\n'
    o=subprocess.run(['/usr/games/fairy-stockfish'],input=txt,capture_output=True,text=True).stdout
    tot=[l.split()[2] for l in o.splitlines() if l.startswith('Total evaluation')]
    assert len(tot)==len(ch),(len(tot),len(ch))
    for f,t in zip(ch,tot):
        if t!='none': out.write('%s|%d\n'%(f,round(float(t)*100)));n+=1
print(n)
